import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BundleGroupTask,
  BundleTask,
  TileActivities,
} from '../../../activities/tiles/tile-activities.js';
import type { tileCacheBuildWorkflow } from '../../../workflows/tile-cache-build.js';
import { createMockWorker, createWorkflowEnvironment, TASK_QUEUE } from './workflow-env.js';

type BuildMocks = Pick<
  TileActivities,
  'prepareTileCache' | 'buildBundle' | 'buildBundles' | 'finishTileCache' | 'failTileCache' | 'resetTileCache'
>;

const WORLD = 20037508.342789244;
const MAX_LEVEL = 10;
/** Bundles of a world cache over levels 0..max: 128 × 128 tiles each, so one a level up to level 7. */
const worldBundles = (max: number) =>
  Array.from({ length: max + 1 }, (_, level) => Math.max(1, 2 ** level / 128) ** 2).reduce((a, b) => a + b);

describe('the tile cache build workflow', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    // The server suggests continuing as new after 60 history events, so this build crosses it many times.
    env = await createWorkflowEnvironment([
      '--dynamic-config-value',
      'limit.historyCount.suggestContinueAsNew=60',
    ]);
  }, 120_000);
  afterAll(async () => env?.teardown());

  it('builds every bundle exactly once across its runs and reports the totals of all of them', async () => {
    const built: string[] = [];
    const groups: number[][] = [];
    const generations = new Set<number>();
    const mocks: BuildMocks = {
      prepareTileCache: async () => ({
        generation: 3,
        extent: [-WORLD, -WORLD, WORLD, WORLD],
        minLevel: 0,
        maxLevel: MAX_LEVEL,
        reachPx: 0,
      }),
      buildBundle: async (task: BundleTask) => {
        built.push(`${task.level}/${task.row0}/${task.col0}`);
        generations.add(task.generation);
        return { tileCount: 2, bytes: 10, reused: false };
      },
      buildBundles: async (task: BundleGroupTask) => {
        for (const b of task.bundles) built.push(`${b.level}/${b.row0}/${b.col0}`);
        groups.push(task.bundles.map((b) => b.level));
        generations.add(task.generation);
        const n = task.bundles.length;
        return { bundles: n, reused: 0, tileCount: 2 * n, bytes: 10 * n };
      },
      finishTileCache: async () => ({
        bundles: built.length,
        tiles: 2 * built.length,
        bytes: 10 * built.length,
      }),
      failTileCache: async () => {
        throw new Error('the build must not fail');
      },
      resetTileCache: async () => 3,
    };
    const worker = await createMockWorker(env, mocks);
    const { result, firstRunId, lastRunId } = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start<typeof tileCacheBuildWorkflow>(
        'tileCacheBuildWorkflow',
        {
          taskQueue: TASK_QUEUE,
          workflowId: 'build-continue',
          args: [{ serviceItemId: 'cache1', jobId: 'job1', concurrency: 2 }],
        },
      );
      const result = await handle.result();
      const lastRunId = (await env.client.workflow.getHandle('build-continue').describe()).runId;
      return { result, firstRunId: handle.firstExecutionRunId, lastRunId };
    });
    const expected = worldBundles(MAX_LEVEL);
    expect(expected).toBe(92);
    expect(lastRunId).not.toBe(firstRunId);
    expect(built).toHaveLength(expected);
    expect(new Set(built).size).toBe(expected);
    // The world's levels 3 to 0 hold 64, 16, 4 and 1 tiles, one bundle each: level 3 fills a group of
    // 64 tiles alone, and the three above it share one; every other bundle has more tiles than a group.
    expect(groups).toEqual([[2, 1, 0]]);
    expect([...generations]).toEqual([3]);
    expect(result).toEqual({
      serviceItemId: 'cache1',
      bundles: expected,
      tiles: 2 * expected,
      bytes: 10 * expected,
    });
  }, 300_000);

  it('keeps four bundle activities in flight when the input names no number', async () => {
    // World levels 0–6: one bundle a level, of 1 to 4,096 tiles; levels 6, 5, 4 and 3 are an activity
    // each and 2–0 a group, so five activities for four places.
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const waiters: (() => void)[] = [];
    /** Holds the first activities until four run at once (or 5 s pass): the most seen at once is the bound. */
    const enter = async (levels: number[]) => {
      active += 1;
      most = Math.max(most, active);
      started.push(...levels);
      if (active >= 4 || most >= 4) for (const wake of waiters.splice(0)) wake();
      else
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      active -= 1;
    };
    const mocks: BuildMocks = {
      prepareTileCache: async () => ({
        generation: 1,
        extent: [-WORLD, -WORLD, WORLD, WORLD],
        minLevel: 0,
        maxLevel: 6,
        reachPx: 0,
      }),
      buildBundle: async (task: BundleTask) => {
        await enter([task.level]);
        return { tileCount: 1, bytes: 1, reused: false };
      },
      buildBundles: async (task: BundleGroupTask) => {
        await enter(task.bundles.map((b) => b.level));
        const n = task.bundles.length;
        return { bundles: n, reused: 0, tileCount: n, bytes: n };
      },
      finishTileCache: async () => ({ bundles: 7, tiles: 7, bytes: 7 }),
      failTileCache: async () => {
        throw new Error('the build must not fail');
      },
      resetTileCache: async () => 1,
    };
    const worker = await createMockWorker(env, mocks);
    const result = await worker.runUntil(
      env.client.workflow.execute<typeof tileCacheBuildWorkflow>('tileCacheBuildWorkflow', {
        taskQueue: TASK_QUEUE,
        workflowId: 'build-four-in-flight',
        args: [{ serviceItemId: 'cache2', jobId: 'job2' }],
      }),
    );
    expect(result).toMatchObject({ bundles: 7 });
    // Deepest first: the first four places go to levels 6, 5, 4 and 3, the group of 2–0 waits for one.
    expect(started.slice(0, 4).sort()).toEqual([3, 4, 5, 6]);
    expect(started.slice(4)).toEqual([2, 1, 0]);
    expect(most).toBe(4);
  }, 120_000);
});
