import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { insertJob } from '../../../db/repositories/jobs.js';
import { beginLoadAttempt } from '../../../db/repositories/load-attempts.js';
import { StaleLoadAttemptError } from '../../../db/repositories/load-fence.js';
import type { JobRequest } from '../../../db/schema/publish-request.js';

// Embedded PGlite, where the retry of a load runs in the same thread as the attempt it replaces.
describe('the load attempt fence on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-attempts-'));
  const table = featureTableName('E'.repeat(32), 0);
  const columns = copyColumns([{ name: 'Name', column: 'a_0', type: 'esriFieldTypeString' }]);
  const line = (id: number) => `${id}\tp${id}\t{"x":${id},"y":${id}}\t(${id},${id}),(${id},${id})\n`;
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    await db.migrate();
    await insertJob(db.db, {
      id: 'job-fence',
      serviceItemId: 'E'.repeat(32),
      owner: 'owner',
      fileType: 'csv',
      workflowId: 'publish-job-fence',
      status: 'processing',
      request: {} as JobRequest,
      created: 1,
      modified: 1,
    });
    await createFeatureTable(db, table, [{ name: 'Name', column: 'a_0', type: 'esriFieldTypeString' }]);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('number attempts of a job layer from 1, each start superseding the one before', async () => {
    expect(await beginLoadAttempt(db, 'job-fence', 7)).toEqual({
      jobId: 'job-fence',
      layerId: 7,
      attempt: 1,
    });
    expect(await beginLoadAttempt(db, 'job-fence', 7)).toEqual({
      jobId: 'job-fence',
      layerId: 7,
      attempt: 2,
    });
    expect((await beginLoadAttempt(db, 'job-fence', 8)).attempt).toBe(1);
  });

  it('let the current attempt copy, and stop a superseded one without writing a row', async () => {
    const older = await beginLoadAttempt(db, 'job-fence', 0);
    await copyRows(db, table, columns, line(1) + line(2), older);
    const newer = await beginLoadAttempt(db, 'job-fence', 0);
    await expect(copyRows(db, table, columns, line(3), older)).rejects.toBeInstanceOf(StaleLoadAttemptError);
    // A batch whose rows were all rejected passes the fence too.
    await expect(copyRows(db, table, columns, '', older)).rejects.toBeInstanceOf(StaleLoadAttemptError);
    await copyRows(db, table, columns, line(3), newer);
    const rows = await db.rows<{ objectid: number }>(
      sql.raw(`select objectid from "${table}" order by objectid`),
    );
    expect(rows.map((r) => r.objectid)).toEqual([1, 2, 3]);
  });
});
