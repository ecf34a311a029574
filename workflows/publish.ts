/**
 * Publishes a hosted feature service: plan the layers, load and finish each, mark the service ready.
 * Data never enters the history: activities take the job id and read everything else themselves.
 * A failure (bad data, or retries exhausted) undoes the service before the workflow fails.
 */
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { PublishActivities } from '../activities/publish/publish-activities.js';
import type { TileActivities } from '../activities/tiles/tile-activities.js';
import { BAD_INPUT, noRowsPublishedMessage } from '../lib/workflow-failures.js';
import { failureOf } from './failure-of.js';
import {
  type LayerProgress,
  type PublishProgress,
  type PublishWorkflowInput,
  type PublishWorkflowResult,
  publishProgressQuery,
  SMALL_SOURCE_BYTES,
} from './messages.js';
import { DATA_STEP, LOCAL_STEP, LONG_STEP, SHORT_STEP } from './retry-presets.js';
import { tileCacheBuildWorkflow } from './tile-cache-build.js';
import { tileCacheBuildWorkflowId } from './tile-cache-messages.js';

const { planPublish, finishLayer, failPublish, swapInOverwrite } =
  proxyActivities<PublishActivities>(DATA_STEP);
const { publishSmallFile } = proxyLocalActivities<PublishActivities>(LOCAL_STEP);
const { markServiceReady, finishPublishJob } = proxyActivities<PublishActivities>(SHORT_STEP);
const { cachesDrawnFrom } = proxyActivities<TileActivities>(SHORT_STEP);
const { loadLayer } = proxyActivities<PublishActivities>(LONG_STEP);

export async function publishWorkflow(input: PublishWorkflowInput): Promise<PublishWorkflowResult> {
  const progress: PublishProgress = { phase: 'planning', layersTotal: 0, layersDone: 0, layers: [] };
  setHandler(publishProgressQuery, () => progress);
  let result: PublishWorkflowResult;
  try {
    if (isSmallFeaturePublish(input)) {
      progress.phase = 'loading';
      const done = await publishSmallFile(input.jobId);
      Object.assign(progress, {
        phase: 'completed',
        layersTotal: done.layers.length,
        layersDone: done.layers.length,
        layers: done.layers,
      });
      const { featureCount, rowsRejected } = done;
      await upsertMemo({ layersDone: done.layers.length, featureCount, rowsRejected });
      return { serviceItemId: input.serviceItemId, featureCount, rowsRejected };
    }
    const layers = await planPublish(input.jobId);
    progress.layersTotal = layers.length;
    progress.layers = layers.map(
      (l): LayerProgress => ({
        layerId: l.layerId,
        name: l.name,
        rowsRead: 0,
        rowsLoaded: 0,
        rowsRejected: 0,
        featureCount: null,
      }),
    );
    let featureCount = 0;
    let rowsRejected = 0;
    let geocoded: { matched: number; tied: number; unmatched: number } | undefined;
    const reasons: string[] = [];
    for (const layer of progress.layers) {
      progress.phase = 'loading';
      const loaded = await loadLayer(input.jobId, layer.layerId);
      Object.assign(layer, {
        rowsRead: loaded.rowsRead,
        rowsLoaded: loaded.rowsLoaded,
        rowsRejected: loaded.rowsRejected,
      });
      reasons.push(...loaded.reasons);
      if (loaded.geocoded) {
        geocoded = {
          matched: (geocoded?.matched ?? 0) + loaded.geocoded.matched,
          tied: (geocoded?.tied ?? 0) + loaded.geocoded.tied,
          unmatched: (geocoded?.unmatched ?? 0) + loaded.geocoded.unmatched,
        };
      }
      progress.phase = 'finishing';
      const finished = await finishLayer(input.jobId, layer.layerId, loaded.stats);
      layer.featureCount = finished.featureCount;
      featureCount += finished.featureCount;
      rowsRejected += loaded.rowsRejected;
      progress.layersDone++;
      await upsertMemo({ layersDone: progress.layersDone, featureCount, rowsRejected });
    }
    if (featureCount === 0) {
      const message = noRowsPublishedMessage(reasons);
      throw ApplicationFailure.nonRetryable(message, BAD_INPUT, { code: 400, message, details: [] });
    }
    const rowsRead = progress.layers.reduce((n, l) => n + l.rowsRead, 0);
    const rowsLoaded = progress.layers.reduce((n, l) => n + l.rowsLoaded, 0);
    const totals = { rowsRead, rowsLoaded, rowsRejected, featureCount, ...geocoded };
    if (input.overwrite) await swapInOverwrite(input.jobId);
    await markServiceReady(input.jobId, totals, input.cache !== undefined);
    if (input.overwrite) await rebuildCachesOf(input.serviceItemId);
    if (!input.cache) {
      progress.phase = 'completed';
      return { serviceItemId: input.serviceItemId, featureCount, rowsRejected };
    }
    result = { serviceItemId: input.serviceItemId, featureCount, rowsRejected };
  } catch (err) {
    progress.phase = 'failed';
    const { code, message } = failureOf(err, 'The publish job failed.');
    await failPublish(input.jobId, code, message, input.cache);
    throw err;
  }
  // The features are loaded and served; the cache is built after them, and its failure leaves them.
  progress.phase = 'caching';
  progress.cacheJobId = input.cache.jobId;
  try {
    const built = await executeChild(tileCacheBuildWorkflow, {
      workflowId: `${workflowInfo().workflowId}-cache`,
      args: [{ serviceItemId: input.cache.serviceItemId, jobId: input.cache.jobId }],
    });
    await finishPublishJob(input.jobId, { status: 'completed', tiles: built.tiles });
  } catch (err) {
    const cause = err instanceof ChildWorkflowFailure ? err.cause : err;
    const message = cause instanceof Error ? cause.message : 'The tile cache could not be built.';
    await finishPublishJob(input.jobId, { status: 'failed', message });
  }
  progress.phase = 'completed';
  return result;
}

/** A new feature service from a small file, without a cache to build: one activity does it all. */
const isSmallFeaturePublish = (input: PublishWorkflowInput) =>
  !input.overwrite &&
  !input.cache &&
  input.sourceSize !== undefined &&
  input.sourceSize <= SMALL_SOURCE_BYTES;

/**
 * After an overwrite every cache drawn from the service is reset and built again, by the same
 * workflow and id an owner's `updateTiles` starts (so the two join); it runs on after this job ends.
 */
async function rebuildCachesOf(serviceItemId: string): Promise<void> {
  for (const cache of await cachesDrawnFrom(serviceItemId)) {
    try {
      await startChild(tileCacheBuildWorkflow, {
        workflowId: tileCacheBuildWorkflowId(cache.serviceItemId, cache.generation),
        args: [{ serviceItemId: cache.serviceItemId, reset: true }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch {
      // A rebuild of that generation is already running: it reads the new tables too.
    }
  }
}
