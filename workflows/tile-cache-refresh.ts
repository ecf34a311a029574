/**
 * Keeps a cache in step with edits of its data: one run per cache (its id derived from the cache's),
 * fed by the `refreshAreas` signal. Areas that arrive while a round is drawing wait for the next round,
 * so quick edits merge into few rounds instead of piling up concurrent redraws of the same bundles.
 * Each round draws only the touched tiles of the touched bundles, then switches the cache to a new
 * generation at once. A cache still being built is refreshed after its build finishes.
 *
 * A full rebuild that resets the cache during a round voids it: the bundle activities refuse to write
 * into the old generation (a write already under way finishes before the reset removes the old objects)
 * and the round ends without switching. Its areas are not drawn again: they were taken before the round
 * found the cache ready, so their edits were committed before the reset and the rebuild draws them.
 */
import {
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { TileActivities } from '../activities/tiles/tile-activities.js';
import type { BundleRecord } from '../db/repositories/tile-caches.js';
import type { Bounds } from '../lib/geometry/types.js';
import { refreshPlan } from '../lib/tiles/refresh-areas.js';
import { DATA_STEP, LONG_STEP, SHORT_STEP } from './retry-presets.js';
import {
  refreshAreasSignal,
  type TileCacheRefreshInput,
  type TileCacheRefreshResult,
  tileCacheRefreshProgressQuery,
} from './tile-cache-messages.js';

const { refreshTarget } = proxyActivities<TileActivities>(SHORT_STEP);
const { switchTileCacheGeneration } = proxyActivities<TileActivities>(DATA_STEP);
const { refreshBundle } = proxyActivities<TileActivities>(LONG_STEP);

/** Bundles drawn at once in a round. */
const CONCURRENCY = 3;
/** How long a finished round waits for more edits before the run ends. */
const LINGER = '2 seconds';

export async function tileCacheRefreshWorkflow(
  input: TileCacheRefreshInput,
): Promise<TileCacheRefreshResult> {
  let pending: Bounds[] = [...(input.pending ?? [])];
  const state = {
    phase: 'waiting',
    serviceItemId: input.serviceItemId,
    rounds: 0,
    bundlesWritten: 0,
    tilesDrawn: 0,
    tilesRemoved: 0,
    bundlesCompacted: 0,
    generation: 0,
  };
  setHandler(refreshAreasSignal, ({ areas }) => {
    pending.push(...areas);
  });
  setHandler(tileCacheRefreshProgressQuery, () => ({ ...state }));

  for (;;) {
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof tileCacheRefreshWorkflow>({ ...input, pending });
    }
    if (pending.length === 0 && !(await condition(() => pending.length > 0, LINGER))) break;
    // Taken before the cache's state is read: see the note on resets above.
    const areas = pending;
    pending = [];
    const target = await refreshTarget(input.serviceItemId);
    if (!target) break;
    if (target.status === 'building') {
      pending = [...areas, ...pending];
      state.phase = 'waiting for the build';
      await sleep('5 seconds');
      continue;
    }
    state.phase = 'drawing';
    const plan = refreshPlan(areas, target.minLevel, target.maxLevel, target.reachPx);
    const refreshed: BundleRecord[] = [];
    let next = 0;
    let reset = false;
    const worker = async () => {
      while (next < plan.length && !reset) {
        const b = plan[next++];
        const out = await refreshBundle({
          serviceItemId: input.serviceItemId,
          generation: target.generation,
          ...b,
        });
        reset ||= out.stale;
        state.tilesDrawn += out.tilesDrawn;
        state.tilesRemoved += out.tilesRemoved;
        if (!out.written) continue;
        state.bundlesWritten++;
        if (out.compacted) state.bundlesCompacted++;
        refreshed.push({
          level: out.level,
          row0: out.row0,
          col0: out.col0,
          tileCount: out.tileCount,
          bytes: out.bytes,
        });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (reset) {
      state.phase = 'waiting';
      continue;
    }
    state.phase = 'switching';
    // Even with nothing written a new generation is cheap, and callers then see one per round.
    if (await switchTileCacheGeneration(input.serviceItemId, target.generation, refreshed, areas)) {
      state.generation = target.generation + 1;
    }
    state.rounds++;
    state.phase = 'waiting';
  }
  state.phase = 'completed';
  return {
    serviceItemId: state.serviceItemId,
    rounds: state.rounds,
    bundlesWritten: state.bundlesWritten,
    tilesDrawn: state.tilesDrawn,
    tilesRemoved: state.tilesRemoved,
    bundlesCompacted: state.bundlesCompacted,
    generation: state.generation,
  };
}
