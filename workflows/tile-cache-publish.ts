/**
 * Publishes a tiled service: from a hosted feature service, the cache is built by the tile cache
 * workflow as a child (its id derived from this one's, so a repeated start joins it); from a tile or
 * vector tile package, the package's tiles are copied into the cache as they are.
 */
import { executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { TileActivities } from '../activities/tiles/tile-activities.js';
import type { TilePackageActivities } from '../activities/tiles/tile-package-activities.js';
import { publishProgressQuery } from './messages.js';
import { STEP_RETRY } from './retry-presets.js';
import { tileCacheBuildWorkflow } from './tile-cache-build.js';
import type { TileCacheBuildResult, TilePublishInput } from './tile-cache-messages.js';

const { finishTileCache, failTileCache } = proxyActivities<TileActivities>({
  startToCloseTimeout: '10 minutes',
  retry: STEP_RETRY,
});

const { importTilePackage } = proxyActivities<TilePackageActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: STEP_RETRY,
});

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
    await failTileCache(
      input.serviceItemId,
      input.jobId,
      500,
      err instanceof Error ? err.message : 'The package could not be published.',
    );
    throw err;
  }
}
