// The workflow bundle's entry: every workflow the worker registers.

export { analyzeWorkflow } from './analyze.js';
export { appendWorkflow } from './append.js';
export { publishWorkflow } from './publish.js';
export { selfCheckWorkflow } from './self-check.js';
export { serviceJobWorkflow } from './service-job.js';
export { tileCacheBuildWorkflow } from './tile-cache-build.js';
export { tilePublishWorkflow } from './tile-cache-publish.js';
export { tileCacheRefreshWorkflow } from './tile-cache-refresh.js';
