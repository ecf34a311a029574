// The workflow bundle's entry: every workflow the worker registers.
export { selfCheckWorkflow } from './self-check.js';
