import type { Client } from '@temporalio/client';
import { eq } from 'drizzle-orm';
import { selfChecks } from '../db/schema/self-checks.js';
import type { SelfCheckResult, selfCheckWorkflow } from '../workflows/self-check.js';
import type { Config } from './config.js';
import type { Runtime } from './runtime.js';
import { newId } from './secrets.js';

/**
 * How long the check may take. A stack that is broken fails it within seconds (its steps retry five
 * times from half a second); a working one is slow only while the worker resumes jobs a crash
 * interrupted: on the embedded stack, with three cache builds and a vector tile build over 1.7 million
 * points resumed at once, the check took 106 s.
 */
const SELF_CHECK_TIMEOUT = '10 minutes';
/** When the launcher says it is still waiting. */
const WAITING_NOTICE_MS = 20_000;

/**
 * Runs the self-check workflow and confirms both of its writes landed; `onWaiting` is called once if it
 * has not passed after `noticeAfterMs`.
 */
export async function runSelfCheck(
  client: Client,
  config: Pick<Config, 'temporal'>,
  runtime: Pick<Runtime, 'database' | 'store'>,
  onWaiting: () => void = () => {},
  noticeAfterMs = WAITING_NOTICE_MS,
): Promise<SelfCheckResult> {
  const checkId = newId();
  const notice = setTimeout(onWaiting, noticeAfterMs);
  const result = await client.workflow
    .execute<typeof selfCheckWorkflow>('selfCheckWorkflow', {
      taskQueue: config.temporal.taskQueue,
      workflowId: `self-check-${checkId}`,
      args: [{ checkId }],
      workflowExecutionTimeout: SELF_CHECK_TIMEOUT,
    })
    .finally(() => clearTimeout(notice));
  const typed: SelfCheckResult = result;
  const object = await runtime.store.stat(typed.objectKey);
  const rows = await runtime.database.db.select().from(selfChecks).where(eq(selfChecks.id, checkId));
  if (!object || rows.length !== 1)
    throw new Error(`self-check ${checkId} did not write both its object and its row`);
  return typed;
}
