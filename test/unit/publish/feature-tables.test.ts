import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, pgliteBytea } from '../../../db/client.js';
import { runFeatureQuery } from '../../../db/repositories/feature-query.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  deleteRowsAfter,
  featureTableExists,
  featureTableName,
  featureTableStats,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { createFieldCatalog } from '../../../lib/query/field-catalog.js';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';

// Embedded PGlite (what `npm start` uses without DATABASE_URL): it has no COPY FROM STDIN stream.
describe('feature tables on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-tables-'));
  const table = featureTableName('D'.repeat(32), 0);
  const columns = [
    { name: 'Name', column: 'a_0', type: 'esriFieldTypeString' as const },
    { name: 'Opened', column: 'a_1', type: 'esriFieldTypeDate' as const },
  ];
  const line = (id: number, name: string, x: number, y: number) =>
    `${id}\t${name}\t2024-03-0${id}T00:00:00.000Z\t{"x":${x},"y":${y}}\t(${x},${y}),(${x},${y})\n`;
  let db: DatabaseHandle;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    // The extent's aggregate comes with the migrations.
    await db.migrate();
    await createFeatureTable(db, table, columns);
    await copyRows(
      db,
      table,
      copyColumns(columns),
      line(1, 'one', 1, 1) + line(2, 'two', 5, 2) + line(3, 'three', 9, 9),
    );
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads bytea as its bytes, each in an array of its own (the tile builds read points so)', async () => {
    // Every byte value, and doubles as float8send writes them (big-endian), computed here by hand.
    const [row] = await db.rows<{ all: Uint8Array; empty: Uint8Array; xy: Uint8Array }>(
      sql`select (select string_agg(set_byte('\\x00'::bytea, 0, i), ''::bytea) from generate_series(0, 255) as i) as "all",
        ''::bytea as "empty", float8send(1.5::float8) || float8send((-2.25)::float8) as "xy"`,
    );
    expect(row.all).toBeInstanceOf(Uint8Array);
    expect([...row.all]).toEqual(Array.from({ length: 256 }, (_, i) => i));
    expect(row.all.byteOffset).toBe(0);
    expect(row.all.buffer.byteLength).toBe(256);
    expect([...row.empty]).toEqual([]);
    // 1.5 = 0x3FF8000000000000, -2.25 = 0xC002000000000000.
    expect([...row.xy]).toEqual([0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xc0, 0x02, 0, 0, 0, 0, 0, 0]);
    expect(() => pgliteBytea('\\x0g')).toThrow('not hex');
    expect(() => pgliteBytea('abc')).toThrow('hex output');
  });

  it('names tables from the item id in lower case and refuses anything else', () => {
    expect(table).toBe(`f_${'d'.repeat(32)}_0`);
    expect(() => featureTableName('x"; drop table items; --', 0)).toThrow();
  });

  it('loads COPY text through a blob and reports count and extent', async () => {
    expect(await featureTableExists(db, table)).toBe(true);
    expect(await featureTableStats(db, table)).toEqual({ count: 3, extent: [1, 1, 9, 9] });
  });

  it('reads count, extent and longest text in one scan, to the bit, past rows without a box', async () => {
    const other = featureTableName('E'.repeat(32), 0);
    await createFeatureTable(db, other, columns);
    // Boxes given corner by corner in any order (the box keeps its high and low corners), doubles
    // that only round-trip in full, a row with no box and no name.
    const boxes: [number, number, number, number][] = [
      [4, -3.5, -1.25, 7.25],
      [0.1 + 0.2, 1e-300, -12999999.058935426, 2 / 3],
      [5e6, -4.000000000000001, 5e6, -4.000000000000001],
    ];
    const text = (n: number) => `${n}`;
    const rows = boxes.map(
      ([x1, y1, x2, y2], i) =>
        `${i + 1}\t${['é', 'ab', 'xyz'][i]}\t\\N\t\\N\t(${text(x1)},${text(y1)}),(${text(x2)},${text(y2)})\n`,
    );
    await copyRows(db, other, copyColumns(columns), `${rows.join('')}4\t\\N\t\\N\t\\N\t\\N\n`);
    const xs = boxes.flatMap((b) => [b[0], b[2]]);
    const ys = boxes.flatMap((b) => [b[1], b[3]]);
    expect(await featureTableStats(db, other, ['a_0'])).toEqual({
      count: 4,
      extent: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      // 'é' is two bytes in UTF-8; 'xyz' three.
      longest: [3],
    });
    const empty = featureTableName('F'.repeat(32), 0);
    await createFeatureTable(db, empty, columns);
    expect(await featureTableStats(db, empty, ['a_0'])).toEqual({ count: 0, extent: null, longest: [0] });
  });

  it('drops rows past a resume point so a reloaded batch is not doubled', async () => {
    await deleteRowsAfter(db, table, 2);
    await copyRows(db, table, copyColumns(columns), line(3, 'three', 9, 9));
    expect((await featureTableStats(db, table)).count).toBe(3);
  });

  it('answers a planned query with a where clause and a bbox filter once indexed', async () => {
    await indexFeatureTable(db, table);
    const layer = {
      table,
      objectIdField: 'OBJECTID',
      fields: createFieldCatalog([
        { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID' },
        ...columns,
      ]),
      maxRecordCount: 10,
      hasGeometry: true,
      geometryType: 'esriGeometryPoint' as const,
    };
    const q = normalizeQuery({ where: "Name <> 'one'", geometry: '0,0,6,6', outfields: 'Name' }, layer);
    const rows = await runFeatureQuery(db, planFeatureQuery(q, layer));
    expect(rows.map((r) => [r.objectid, r.a_0])).toEqual([[2, 'two']]);
  });
});
