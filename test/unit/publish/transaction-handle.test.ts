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
  featureTableExists,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { insertJob } from '../../../db/repositories/jobs.js';
import { beginLoadAttempt } from '../../../db/repositories/load-attempts.js';
import type { JobRequest } from '../../../db/schema/publish-request.js';

// A small publish on one transaction: the table, its COPY and the fence check commit or vanish together.
describe('a transaction handle on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'transaction-handle-'));
  const fields = [{ name: 'Name', column: 'a_0', type: 'esriFieldTypeString' as const }];
  const columns = copyColumns(fields);
  const lines = [1, 2, 3].map((i) => `${i}\tp${i}\t{"x":${i},"y":${i}}\t(${i},${i}),(${i},${i})\n`).join('');
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    await db.migrate();
    await insertJob(db.db, {
      id: 'job-tx',
      serviceItemId: 'A'.repeat(32),
      owner: 'owner',
      fileType: 'csv',
      workflowId: 'publish-job-tx',
      status: 'processing',
      request: {} as JobRequest,
      created: 1,
      modified: 1,
    });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits the table and every fenced COPY in it at once', async () => {
    const table = featureTableName('A'.repeat(32), 0);
    await db.transaction(async (tx) => {
      expect(tx.inTransaction).toBe(true);
      const fence = await beginLoadAttempt(tx, 'job-tx', 0);
      await createFeatureTable(tx, table, fields);
      await copyRows(tx, table, columns, lines, fence);
    });
    const rows = await db.rows<{ n: number; names: string }>(
      sql.raw(`select count(*)::int as n, string_agg(a_0, ',' order by objectid) as names from "${table}"`),
    );
    expect(rows[0]).toEqual({ n: 3, names: 'p1,p2,p3' });
  });

  it('leaves neither the table nor its rows when the body fails after the COPY', async () => {
    const table = featureTableName('A'.repeat(32), 1);
    await expect(
      db.transaction(async (tx) => {
        const fence = await beginLoadAttempt(tx, 'job-tx', 1);
        await createFeatureTable(tx, table, fields);
        await copyRows(tx, table, columns, lines, fence);
        throw new Error('the finish failed');
      }),
    ).rejects.toThrow('the finish failed');
    expect(await featureTableExists(db, table)).toBe(false);
    const attempts = await db.rows<{ n: number }>(
      sql`select count(*)::int as n from publish_load_attempts where job_id = 'job-tx' and layer_id = 1`,
    );
    expect(attempts[0].n).toBe(0);
  });
});
