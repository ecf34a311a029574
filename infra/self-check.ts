import type { Client } from '@temporalio/client';
import { eq } from 'drizzle-orm';
import { selfChecks } from '../db/schema/self-checks.js';
import type { SelfCheckResult, selfCheckWorkflow } from '../workflows/self-check.js';
import type { Config } from './config.js';
import type { Runtime } from './runtime.js';
import { newId } from './secrets.js';

/** Runs the self-check workflow and confirms both of its writes landed. */
export async function runSelfCheck(
  client: Client,
  config: Config,
  runtime: Pick<Runtime, 'database' | 'store'>,
): Promise<SelfCheckResult> {
  const checkId = newId();
  const result = await client.workflow.execute<typeof selfCheckWorkflow>('selfCheckWorkflow', {
    taskQueue: config.temporal.taskQueue,
    workflowId: `self-check-${checkId}`,
    args: [{ checkId }],
    workflowExecutionTimeout: '2 minutes',
  });
  const typed: SelfCheckResult = result;
  const object = await runtime.store.stat(typed.objectKey);
  const rows = await runtime.database.db.select().from(selfChecks).where(eq(selfChecks.id, checkId));
  if (!object || rows.length !== 1)
    throw new Error(`self-check ${checkId} did not write both its object and its row`);
  return typed;
}
