/**
 * The status call of a job in its first second waits for the job's end (the NOTIFY its final
 * transaction sends) instead of answering "processing" and leaving the client to learn the outcome a
 * polling interval later; it waits no longer than the job's first second. The jobs here are rows the
 * test writes and ends itself with its own SQL, so no workflow is involved.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';

let sql: postgres.Sql;
let token: string;

beforeAll(async () => {
  sql = postgres(stack().databaseUrl, { max: 1, onnotice: () => {} });
  token = await signIn();
});
afterAll(async () => sql?.end());

/** A processing job of the administrator's, created `ageMs` ago. */
async function insertJob(ageMs: number): Promise<{ id: string; itemId: string }> {
  const id = randomBytes(16).toString('hex');
  const itemId = randomBytes(16).toString('hex');
  const created = Date.now() - ageMs;
  await sql`insert into publish_jobs (id, service_item_id, owner, file_type, workflow_id, status,
    status_message, request, created, modified)
    values (${id}, ${itemId}, ${stack().admin.username}, 'csv', ${`status-wait-${id}`}, 'processing',
    'processing', ${sql.json({ sourceKey: 'none' })}, ${created}, ${created})`;
  return { id, itemId };
}

const status = (job: { id: string; itemId: string }) =>
  call(`/sharing/rest/content/users/${stack().admin.username}/items/${job.itemId}/status`, {
    token,
    jobId: job.id,
  });

describe('the status of a young job', () => {
  it('answers the outcome of a job that ends while the call waits', async () => {
    const job = await insertJob(0);
    const answer = status(job);
    // Ended by the test a moment after the call started (without the wait it would have answered
    // "processing" by then): the update and the notification commit together.
    await new Promise((r) => setTimeout(r, 150));
    await sql.begin(async (tx) => {
      await tx`update publish_jobs set status = 'completed', status_message = 'completed',
        modified = ${Date.now()} where id = ${job.id}`;
      await tx`select pg_notify('publish_job_finished', ${job.id})`;
    });
    const { json } = await answer;
    expect(json).toMatchObject({ status: 'completed', statusMessage: 'completed', jobId: job.id });
  });

  it('answers "processing" once the first second has passed without an end', async () => {
    const job = await insertJob(900);
    const { json } = await status(job);
    expect(json).toMatchObject({ status: 'processing', jobId: job.id });
  });
});
