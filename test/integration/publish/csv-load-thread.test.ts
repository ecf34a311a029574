/**
 * A delimited file's load on PostgreSQL runs in the CSV load thread, which reads the file from MinIO
 * and copies on a connection of its own; on PGlite the CSV encoder thread encodes the batches the
 * activity reads and copies. Either way quoted fields (commas, doubled quotes, line breaks inside),
 * non-ASCII text, blank lines and unusable rows land exactly as written, each row once under its row
 * number; and a load resumed from one of its heartbeats (a ranged read from the middle of the file)
 * ends with the same table.
 */

import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../../../activities/publish/load-layer.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import { SHAPE_TEXT } from '../../../lib/query/plan-statements.js';
import { stack } from '../support/portal-client.js';
import { insertCsvPublishJob, stackPublishActivities } from './worker-process.js';

const ROWS = 120_000;

/** Row i's name: every 50th is quoted with a comma, a doubled quote and a line break inside. */
const nameOf = (i: number) =>
  i % 50 === 0 ? `Line one, "${i}"\nline two` : i % 7 === 0 ? `Café ${i} – Zürich` : `point ${i}`;
const quoted = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
/** Every 1000th row has an unusable latitude. */
const usable = (i: number) => i % 1000 !== 0;

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,name,value,lat,lon\n');
  for (let i = 1; i <= ROWS; i++) {
    const lat = usable(i) ? (41.6 + (i % 3800) / 10000).toFixed(5) : 'n/a';
    const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
    let line = `${i},${quoted(nameOf(i))},${(i % 997) / 10},${lat},${lon}\n`;
    // Blank lines are not records: row numbers (object ids) go on from the record before.
    if (i % 10_000 === 0) line += '\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

describe.each([
  ['the load thread on PostgreSQL', 'postgres', 'd'],
  ['the encoder thread on PGlite', 'pglite', 'e'],
] as const)('a CSV loaded by %s', (_, kind, pad) => {
  const dir = mkdtempSync(join(tmpdir(), 'csv-load-thread-'));
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, pad);
  const jobId = `thread-${serviceItemId}`;
  const table = featureTableName(serviceItemId, 0);
  let database: DatabaseHandle;
  let activities: ReturnType<typeof stackPublishActivities>;

  beforeAll(async () => {
    const s = stack();
    database =
      kind === 'postgres'
        ? await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 4 })
        : await openDatabase({ pgliteDir: join(dir, 'pglite') });
    if (kind === 'pglite') await database.migrate();
    expect(database.kind).toBe(kind);
    const path = join(dir, 'places.csv');
    await writeCsv(path);
    await insertCsvPublishJob(database, path, jobId, serviceItemId);
    activities = stackPublishActivities(database);
    await new MockActivityEnvironment().run(() => activities.planPublish(jobId));
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expectedUsable = ROWS - ROWS / 1000;
  const expectedIdSum = (ROWS * (ROWS + 1)) / 2 - (1000 * (ROWS / 1000) * (ROWS / 1000 + 1)) / 2;

  async function checkTable() {
    const [counts] = await database.rows<{ n: number; ids: number; off: number; sum: string }>(
      sql.raw(`select count(*)::int as n, count(distinct objectid)::int as ids,
        count(*) filter (where objectid <> a_0)::int as off, sum(a_0)::text as sum from "${table}"`),
    );
    expect(counts).toEqual({ n: expectedUsable, ids: expectedUsable, off: 0, sum: String(expectedIdSum) });
    const picks = [1, 7, 50, 700, 9_999, 10_001, 10_050, 99_950, ROWS - 1];
    const rows = await database.rows<{ objectid: number; a_1: string; shape: string }>(
      sql.raw(
        `select objectid, a_1, ${SHAPE_TEXT} from "${table}" where objectid in (${picks.join(',')}) order by 1`,
      ),
    );
    expect(rows.map((r) => [r.objectid, r.a_1])).toEqual(picks.map((i) => [i, nameOf(i)]));
    // The point in Web Mercator, from the row's own longitude.
    const lon = -87.9 + (7 % 4500) / 10000;
    expect(JSON.parse(rows[1].shape).x).toBeCloseTo((lon * Math.PI * 6378137) / 180, 3);
  }

  const beats: { byteOffset: number; rowNumber: number; rowsLoaded: number }[] = [];

  it('loads every usable row once, under its row number, with its text as written', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000 });
    env.on('heartbeat', (d: (typeof beats)[number]) => beats.push(d));
    const result = (await env.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(result).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable, rowsRejected: ROWS / 1000 });
    expect(result.reasons[0]).toMatch(/^Row 1000: /);
    await checkTable();
    // Resume points move forward batch by batch, and each is a record boundary the file's bytes agree on.
    expect(beats.length).toBeGreaterThan(2);
    for (let k = 1; k < beats.length; k++) {
      expect(beats[k].byteOffset).toBeGreaterThan(beats[k - 1].byteOffset);
      expect(beats[k].rowNumber).toBeGreaterThan(beats[k - 1].rowNumber);
    }
    expect(beats.at(-1)?.rowNumber).toBe(ROWS);
  }, 120_000);

  it('resumed from a heartbeat in the middle, ends with the same table', async () => {
    const middle = beats[Math.floor(beats.length / 2)];
    expect(middle.rowNumber).toBeGreaterThan(0);
    expect(middle.rowNumber).toBeLessThan(ROWS);
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 60_000, heartbeatDetails: middle });
    const result = (await env.run(() => activities.loadLayer(jobId, 0))) as LoadResult;
    expect(result).toMatchObject({ rowsRead: ROWS, rowsLoaded: expectedUsable, rowsRejected: ROWS / 1000 });
    await checkTable();
  }, 120_000);
});
