// The DOM helpers now live beside the base element; kept for the lesson's modules that import them from here.
export { escapeHtml, setHidden, setText } from './base.js';
