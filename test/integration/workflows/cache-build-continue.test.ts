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

describe('a long tile cache build continues as new', () => {
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
});
