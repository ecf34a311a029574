import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { watchJob } from '../../../db/repositories/job-notifications.js';
import { finishJob, insertJob } from '../../../db/repositories/jobs.js';
import type { JobRequest } from '../../../db/schema/publish-request.js';

// Embedded PGlite: the worker's finishJob and the API's status call share the one database.
describe('job end notifications on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'job-notifications-'));
  let db: DatabaseHandle;
  const job = (id: string) =>
    insertJob(db.db, {
      id,
      serviceItemId: 'F'.repeat(32),
      owner: 'owner',
      fileType: 'csv',
      workflowId: `publish-${id}`,
      status: 'processing',
      request: {} as JobRequest,
      created: 1,
      modified: 1,
    });
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    await db.migrate();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('wakes the watch of a job when finishJob ends it, and not the watch of another job', async () => {
    await job('ends');
    await job('stays');
    const ends = await watchJob(db, 'ends');
    const stays = await watchJob(db, 'stays');
    const heard = ends.ended(60_000);
    await finishJob(db.db, 'ends', 'completed', 'completed', 2);
    expect(await heard).toBe(true);
    expect(await stays.ended(20)).toBe(false);
    ends.close();
    stays.close();
  });

  it('is heard only once the transaction that ends the job commits, and never if it rolls back', async () => {
    await job('committed');
    await job('rolled-back');
    const committed = await watchJob(db, 'committed');
    const rolledBack = await watchJob(db, 'rolled-back');
    await db.transaction(async (tx) => {
      await finishJob(tx.db, 'committed', 'completed', 'completed', 2);
      expect(await committed.ended(0)).toBe(false);
    });
    expect(await committed.ended(60_000)).toBe(true);
    await expect(
      db.transaction(async (tx) => {
        await finishJob(tx.db, 'rolled-back', 'failed', 'failed', 2);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await rolledBack.ended(20)).toBe(false);
    committed.close();
    rolledBack.close();
  });
});
