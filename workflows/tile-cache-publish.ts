/**
 * Publishes a tiled service: from a hosted feature service, the cache is built by the tile cache
 * workflow as a child (its id derived from this one's, so a repeated start joins it); from a tile or
 * vector tile package, the package's tiles are copied into the cache as they are.
 */
import { executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { TileActivities } from '../activities/tiles/tile-activities.js';
import type { TilePackageActivities } from '../activities/tiles/tile-package-activities.js';
import { failureOf } from './failure-of.js';
import { publishProgressQuery } from './messages.js';
import { DATA_STEP, LONG_STEP, SHORT_STEP, STEP_RETRY } from './retry-presets.js';
import { tileCacheBuildWorkflow } from './tile-cache-build.js';
import type { TileCacheBuildResult, TilePublishInput } from './tile-cache-messages.js';

const { finishTileCache } = proxyActivities<TileActivities>(DATA_STEP);
const { failTileCache } = proxyActivities<TileActivities>(SHORT_STEP);
// Resumes by skipping the bundles already imported; bad packages fail at once.
const { importTilePackage } = proxyActivities<TilePackageActivities>({ ...LONG_STEP, retry: STEP_RETRY });

export async function tilePublishWorkflow(input: TilePublishInput): Promise<TileCacheBuildResult> {
  let phase = 'caching';
  // The status operation asks every publish job this query; tile jobs report their phase.
  setHandler(publishProgressQuery, () => ({ phase, layersTotal: 0, layersDone: 0, layers: [] }));
  if (input.kind === 'featureService' || input.kind === 'featureServiceVectorTiles') {
    const result = await executeChild(tileCacheBuildWorkflow, {
      workflowId: `${workflowInfo().workflowId}-cache`,
      args: [{ serviceItemId: input.serviceItemId, jobId: input.jobId }],
    });
    phase = 'completed';
    return result;
  }
  try {
    await importTilePackage(input.jobId);
    const totals = await finishTileCache(input.serviceItemId, 1, input.jobId);
    phase = 'completed';
    return { serviceItemId: input.serviceItemId, ...totals };
  } catch (err) {
    phase = 'failed';
    // A package the activity refused (bad input) fails with its 400 and words, not the wrapper's.
    const { code, message } = failureOf(err, 'The package could not be published.');
    await failTileCache(input.serviceItemId, input.jobId, code, message);
    throw err;
  }
}
