import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFailureMapping } from '../../../activities/publish/activity-errors.js';
import type { PublishActivities } from '../../../activities/publish/publish-activities.js';
import type { TileActivities } from '../../../activities/tiles/tile-activities.js';
import { badRequest } from '../../../lib/errors.js';
import type { PublishWorkflowInput } from '../../../workflows/messages.js';
import type { publishWorkflow } from '../../../workflows/publish.js';
import { createMockWorker, createWorkflowEnvironment, TASK_QUEUE } from './workflow-env.js';

type Calls = string[];
type PublishMocks = Pick<
  PublishActivities,
  | 'planPublish'
  | 'loadLayer'
  | 'finishLayer'
  | 'markServiceReady'
  | 'failPublish'
  | 'finishPublishJob'
  | 'swapInOverwrite'
> &
  Pick<TileActivities, 'cachesDrawnFrom'>;

/** Activities that record their calls; `load` says what loading the one layer does. */
function publishMocks(calls: Calls, load: PublishMocks['loadLayer'], featureCount: number): PublishMocks {
  const mocks: PublishMocks = {
    planPublish: async () => [{ layerId: 0, name: 'points' }],
    loadLayer: load,
    finishLayer: async () => {
      calls.push('finishLayer');
      return { featureCount } as Awaited<ReturnType<PublishActivities['finishLayer']>>;
    },
    markServiceReady: async () => {
      calls.push('markServiceReady');
    },
    failPublish: async (jobId, code, message) => {
      calls.push(`failPublish ${jobId} ${code} ${message}`);
    },
    finishPublishJob: async () => {
      calls.push('finishPublishJob');
    },
    swapInOverwrite: async () => {
      calls.push('swapInOverwrite');
    },
    cachesDrawnFrom: async () => [],
  };
  // The real mapping of the product's errors to Temporal failures, as the worker wraps activities.
  return withFailureMapping(mocks);
}

const input: PublishWorkflowInput = {
  jobId: 'job1',
  serviceItemId: 'service1',
  owner: 'owner',
  fileType: 'csv',
};

describe('the publish workflow rolls back a failed publish', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createWorkflowEnvironment();
  }, 120_000);
  afterAll(async () => env?.teardown());

  async function run(mocks: PublishMocks, workflowId: string): Promise<unknown> {
    const worker = await createMockWorker(env, mocks);
    return worker.runUntil(
      env.client.workflow
        .execute<typeof publishWorkflow>('publishWorkflow', {
          taskQueue: TASK_QUEUE,
          workflowId,
          args: [{ ...input, jobId: workflowId }],
        })
        .then(
          () => 'completed',
          (e: unknown) => e,
        ),
    );
  }

  it('fails the job with the activity’s own 400 when a layer cannot be loaded, without marking it ready', async () => {
    const calls: Calls = [];
    const mocks = publishMocks(
      calls,
      async () => {
        throw badRequest('The file could not be read.', ['Row 2 has no location.']);
      },
      0,
    );
    const outcome = await run(mocks, 'rollback-load');
    expect(outcome).toBeInstanceOf(Error);
    expect(calls).toEqual([
      'failPublish rollback-load 400 The file could not be read. Row 2 has no location.',
    ]);
  }, 120_000);

  it('fails the job when no row could be published, naming the reasons', async () => {
    const calls: Calls = [];
    const mocks = publishMocks(
      calls,
      async () => ({
        rowsRead: 2,
        rowsLoaded: 0,
        rowsRejected: 2,
        reasons: ['Row 1: no x.', 'Row 2: no y.'],
      }),
      0,
    );
    const outcome = await run(mocks, 'rollback-empty');
    expect(outcome).toBeInstanceOf(Error);
    expect(calls).toEqual([
      'finishLayer',
      'failPublish rollback-empty 400 No row of the file could be published. Row 1: no x. Row 2: no y.',
    ]);
  }, 120_000);

  it('marks a loaded service ready and does not roll it back', async () => {
    const calls: Calls = [];
    const mocks = publishMocks(
      calls,
      async () => ({ rowsRead: 3, rowsLoaded: 3, rowsRejected: 0, reasons: [] }),
      3,
    );
    expect(await run(mocks, 'publish-ok')).toBe('completed');
    expect(calls).toEqual(['finishLayer', 'markServiceReady']);
  }, 120_000);
});
