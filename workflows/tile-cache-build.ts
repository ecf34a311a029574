/**
 * Builds a tile cache: prepare (levels, extent, conf files), then one activity per bundle with a
 * bounded number in flight, then finish. Runs on its own (a rebuild after an edit) or as the child of
 * a tile publish. Finished bundles are recorded by the activity, so a retried or resumed build skips
 * them; a long build continues as new with its place in the bundle list.
 *
 * A rebuild (`reset`) first moves the cache to a new generation, which waits for any edit refresh still
 * writing into the old one and keeps later refresh writes out (see `writeAtGeneration`), then removes the
 * old objects and draws every bundle from the current data. Edits committed before a bundle is drawn are
 * in it; edits after it reach the refresh workflow, which waits while the cache is building.
 */
import {
  ApplicationFailure,
  ContinueAsNew,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { TileActivities } from '../activities/tiles/tile-activities.js';
import { failureOf } from './failure-of.js';
import { DATA_STEP, LONG_STEP, SHORT_STEP } from './retry-presets.js';
import {
  type BundleRef,
  cacheBundleGroupsFrom,
  cacheBundlesFrom,
  countCacheBundles,
} from './tile-cache-bundles.js';
import {
  type TileCacheBuildInput,
  type TileCacheBuildResult,
  type TileCacheProgress,
  tileCacheProgressQuery,
} from './tile-cache-messages.js';

const { prepareTileCache, finishTileCache, resetTileCache } = proxyActivities<TileActivities>(DATA_STEP);
const { failTileCache } = proxyActivities<TileActivities>(SHORT_STEP);
const { buildBundle, buildBundles } = proxyActivities<TileActivities>(LONG_STEP);

/** The workflow patch under which builds visit the deepest level first (tile-cache-bundles.ts). */
const DEEPEST_FIRST = 'bundles-deepest-level-first';
/** The workflow patch under which small consecutive bundles are drawn in groups, one activity each. */
const GROUPED = 'small-bundles-grouped';
/**
 * The workflow patch under which four activities are in flight by default, not three. Grouped, a city's
 * cache is a few large bundles and one group of its small ones; with three in flight the group waited
 * for a large bundle and then drew alone at the end, the cores half idle (bench/README "Tiles",
 * session 38).
 */
const FOUR_IN_FLIGHT = 'bundles-four-in-flight';

export async function tileCacheBuildWorkflow(input: TileCacheBuildInput): Promise<TileCacheBuildResult> {
  const { serviceItemId, jobId } = input;
  const progress: TileCacheProgress = {
    phase: 'preparing',
    minLevel: 0,
    maxLevel: -1,
    bundlesTotal: 0,
    bundlesDone: input.resume?.nextBundle ?? 0,
    bundlesReused: input.resume?.bundlesReused ?? 0,
    tilesDone: input.resume?.tiles ?? 0,
  };
  setHandler(tileCacheProgressQuery, () => progress);
  // The generation this run builds, once known: a failure then marks the cache failed only if no later
  // rebuild has moved it on.
  let generation = input.resume?.generation;
  try {
    if (input.reset && !input.resume) generation = await resetTileCache(serviceItemId);
    const plan = await prepareTileCache(serviceItemId);
    if (generation !== undefined && generation !== plan.generation) {
      throw ApplicationFailure.nonRetryable('The cache was reset by another build.', 'CacheReset');
    }
    generation = plan.generation;
    const total = countCacheBundles(plan.extent, plan.minLevel, plan.maxLevel, plan.reachPx);
    Object.assign(progress, { phase: 'building', minLevel: plan.minLevel, maxLevel: plan.maxLevel });
    progress.bundlesTotal = total;
    // A run begun with three in flight (its history says so) keeps three; a run continued as new starts
    // with nothing in flight, so it may take the new default.
    const concurrency = Math.max(1, input.concurrency ?? (patched(FOUR_IN_FLIGHT) ? 4 : 3));

    let next = input.resume?.nextBundle ?? 0;
    const inFlight = new Set<Promise<void>>();
    // Deepest level first; a run begun in the old order (its history or its resume input says so) keeps it.
    const deepestFirst = input.resume ? input.resume.deepestFirst === true : patched(DEEPEST_FIRST);
    // Small bundles in groups; a run begun one bundle at a time (its history or resume input) keeps that.
    const grouped = input.resume ? input.resume.grouped === true : patched(GROUPED);
    const order = { deepestFirst };
    const groups = grouped
      ? cacheBundleGroupsFrom(
          plan.extent,
          plan.minLevel,
          plan.maxLevel,
          plan.reachPx,
          next,
          order,
          input.groupTiles,
        )
      : undefined;
    const bundles = grouped
      ? undefined
      : cacheBundlesFrom(plan.extent, plan.minLevel, plan.maxLevel, plan.reachPx, next, order);
    const done = (count: number, tiles: number, reused: number) => {
      const before = progress.bundlesDone;
      progress.bundlesDone += count;
      progress.tilesDone += tiles;
      progress.bundlesReused += reused;
      // The Temporal UI shows memos: refresh it now and then, not per bundle (each is an event).
      if (Math.floor(progress.bundlesDone / 25) !== Math.floor(before / 25)) upsertMemo({ ...progress });
    };
    const startOne = () => {
      const group = groups ? (groups.next().value as BundleRef[]) : [bundles?.next().value as BundleRef];
      next += group.length;
      const task = { serviceItemId, generation: plan.generation, jobId };
      const p: Promise<void> = (
        group.length === 1
          ? buildBundle({ ...task, ...group[0] }).then((out) => done(1, out.tileCount, out.reused ? 1 : 0))
          : buildBundles({ ...task, bundles: group }).then((out) =>
              done(out.bundles, out.tileCount, out.reused),
            )
      ).then(() => {
        inFlight.delete(p);
      });
      inFlight.add(p);
    };
    while (next < total) {
      while (inFlight.size < concurrency && next < total) startOne();
      await Promise.race(inFlight);
      if (workflowInfo().continueAsNewSuggested && next < total) {
        // Bundles are recorded when done, so only the ones in flight are waited for, not redone.
        await Promise.all(inFlight);
        await upsertMemo({ bundlesDone: progress.bundlesDone, tilesDone: progress.tilesDone });
        await continueAsNew<typeof tileCacheBuildWorkflow>({
          ...input,
          resume: {
            generation: plan.generation,
            nextBundle: next,
            tiles: progress.tilesDone,
            bundlesReused: progress.bundlesReused,
            deepestFirst,
            grouped,
          },
        });
      }
    }
    await Promise.all(inFlight);
    progress.phase = 'finishing';
    const totals = await finishTileCache(serviceItemId, plan.generation, jobId);
    progress.phase = 'completed';
    await upsertMemo({ bundlesDone: totals.bundles, tilesDone: totals.tiles });
    return { serviceItemId, ...totals };
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    progress.phase = 'failed';
    const { code, message } = failureOf(err, 'The tile cache could not be built.');
    await failTileCache(serviceItemId, jobId, code, message, generation);
    throw err;
  }
}
