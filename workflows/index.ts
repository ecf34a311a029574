// The workflow bundle's entry: every workflow the worker registers.

export { publishWorkflow } from './publish.js';
export { selfCheckWorkflow } from './self-check.js';
