// <attention-lab> at the URL lesson pages embed it by; the element lives in ./lab/ with its family.
export * from './lab/attention-lab.js';
