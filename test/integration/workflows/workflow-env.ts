/**
 * A Temporal test environment on the Temporal CLI that `npm start` builds (no download), with a worker
 * over the real workflow bundle and the activity mocks a test passes in.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { loadConfig } from '../../../infra/config.js';
import { binaryPath } from '../../../infra/embedded-services.js';
import { workflowsPath } from '../../../infra/temporal.js';

export const TASK_QUEUE = 'workflow-tests';

export function createWorkflowEnvironment(extraArgs: string[] = []): Promise<TestWorkflowEnvironment> {
  const { cacheDir } = loadConfig();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: binaryPath(cacheDir, 'temporal') },
      extraArgs,
    },
  });
}

export function createMockWorker(env: TestWorkflowEnvironment, activities: object): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: TASK_QUEUE,
    workflowsPath,
    activities,
    bundlerOptions: { ignoreModules: [] },
  });
}
