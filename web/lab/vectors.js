// The former name of web/lab/inputs.js, kept while the lesson's modules still import it.
export { LabPipeline as VectorBuilder, WORD_DIM } from './inputs.js';
