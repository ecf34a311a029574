import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFailureMapping } from '../../../activities/publish/activity-errors.js';
import type { ServiceJobActivities } from '../../../activities/service-jobs/service-job-activities.js';
import { badRequest } from '../../../lib/errors.js';
import type { serviceJobWorkflow } from '../../../workflows/service-job.js';
import type { ServiceJobDone, ServiceJobInput } from '../../../workflows/service-job-messages.js';
import { createMockWorker, createWorkflowEnvironment, TASK_QUEUE } from './workflow-env.js';

const input = (jobId: string): ServiceJobInput => ({ jobId, operation: 'calculate' });

const done: ServiceJobDone = {
  answer: { success: true, updatedFeatureCount: 2, status: 'Completed' },
  caches: [],
  areas: [],
};

describe('the service job workflow', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createWorkflowEnvironment();
  }, 120_000);
  afterAll(async () => env?.teardown());

  /** Runs the workflow over `run`; returns its outcome and the failServiceJob calls. */
  async function execute(jobId: string, run: ServiceJobActivities['runServiceJob']) {
    const failed: unknown[] = [];
    const mocks = withFailureMapping({
      runServiceJob: run,
      failServiceJob: async (failure: Parameters<ServiceJobActivities['failServiceJob']>[0]) => {
        failed.push(failure);
      },
    });
    const worker = await createMockWorker(env, mocks);
    const outcome = await worker.runUntil(
      env.client.workflow
        .execute<typeof serviceJobWorkflow>('serviceJobWorkflow', {
          taskQueue: TASK_QUEUE,
          workflowId: `calculate-${jobId}`,
          args: [input(jobId)],
        })
        .catch((e: unknown) => e),
    );
    return { outcome, failed };
  }

  it('a client error fails the job at once with that error, without a retry', async () => {
    let attempts = 0;
    const { outcome, failed } = await execute('bad', async () => {
      attempts++;
      throw badRequest('Unable to complete operation.', ['The value is out of range.']);
    });
    expect(outcome).toBeInstanceOf(Error);
    expect(attempts).toBe(1);
    expect(failed).toEqual([
      {
        jobId: 'bad',
        error: {
          code: 400,
          message: 'Unable to complete operation.',
          details: ['The value is out of range.'],
        },
      },
    ]);
  });

  it('a step lost to a passing fault is retried and the job is not failed', async () => {
    let attempts = 0;
    const { outcome, failed } = await execute('retried', async () => {
      attempts++;
      if (attempts === 1) throw new Error('connection terminated unexpectedly');
      return done;
    });
    expect(outcome).toEqual(done.answer);
    expect(attempts).toBe(2);
    expect(failed).toEqual([]);
  });
});
