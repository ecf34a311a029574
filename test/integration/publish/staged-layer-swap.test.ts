/**
 * An overwrite's swap (db/repositories/feature-table-swap.ts swapInStagedLayers) of a staging table a
 * large load left in parts: the parts and every index, the parts' own included, take the target's
 * names, so what names a part from the layer's table (feature-tables.ts partName) and the next
 * overwrite find them. The expected names are the staging relations' as the catalog lists them before
 * the swap, with the target's name in front.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { stagingTableName, swapInStagedLayers } from '../../../db/repositories/feature-table-swap.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  dropFeatureTable,
  featureTableName,
  featureTableParts,
  indexFeaturePart,
  indexFeatureTable,
  partName,
} from '../../../db/repositories/feature-tables.js';
import { deleteService, insertService, listLayers, upsertLayer } from '../../../db/repositories/services.js';
import { stack } from '../support/portal-client.js';

const COLUMNS = [{ name: 'kind', column: 'a_0', type: 'esriFieldTypeString' as const }];
const POINT = 'esriGeometryPoint';

/** Points `from`..`to` (object ids) as COPY text, each of `kind`. */
const points = (from: number, to: number, kind: string) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const x = from + i;
    return `${x}\t${kind}\t\\N\t(${x},${-x}),(${x},${-x})\n`;
  }).join('');

/** A feature table of `rows` points in parts cut at `bounds` (none: a plain table), indexed as a load leaves it. */
async function loadTable(db: DatabaseHandle, table: string, bounds: number[], rows: number, kind: string) {
  await createFeatureTable(db, table, COLUMNS, bounds);
  await copyRows(db, table, copyColumns(COLUMNS), points(1, rows, kind));
  // The first part's indexes built during the load under their own names; the others' by the table's
  // indexes, which PostgreSQL names.
  if (bounds.length > 0) await indexFeaturePart(db, partName(table, 0), POINT, bounds.length + 1);
  await indexFeatureTable(db, table, POINT);
}

interface Relation {
  name: string;
  kind: string;
  /** The table an index is on; '' for a table. */
  on: string;
}

/** Every relation whose name starts with `prefix`: tables, parts and indexes, and what each index is on. */
async function relationsNamed(db: DatabaseHandle, prefix: string): Promise<Relation[]> {
  const rows = await db.rows<Relation>(
    sql`select c.relname::text as "name", c.relkind::text as "kind", coalesce(t.relname::text, '') as "on"
        from pg_class c left join pg_index x on x.indexrelid = c.oid left join pg_class t on t.oid = x.indrelid
        where starts_with(c.relname::text, ${prefix}) order by 1`,
  );
  return rows.map((r) => ({ name: r.name, kind: r.kind, on: r.on }));
}

/** Where the staging table and the target are cut into parts (none: a plain table). */
const CASES = [
  ['loaded in parts, swapped in on PostgreSQL over a plain table', 'postgres', [101, 201], [], 'a'],
  ['loaded in parts, swapped in on PostgreSQL over one in parts', 'postgres', [101, 201], [76], 'b'],
  ['loaded as one table, swapped in on PostgreSQL over one in parts', 'postgres', [], [76], 'c'],
  ['loaded as one table, swapped in on PGlite over a plain table', 'pglite', [], [], 'd'],
] as const;

describe.each(CASES)('an overwrite %s', (_, engine, staged, targetBounds, pad) => {
  const dir = mkdtempSync(join(tmpdir(), 'staged-swap-'));
  const serviceItemId = `${Date.now().toString(16)}`.padEnd(32, pad);
  const target = featureTableName(serviceItemId, 0);
  const staging = stagingTableName(target, `overwrite-${serviceItemId}`);
  let db: DatabaseHandle;

  afterAll(async () => {
    if (db) {
      await deleteService(db.db, serviceItemId);
      await dropFeatureTable(db, target);
      await dropFeatureTable(db, staging);
      await db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the staging table, its parts and every index the target's names, every row there", async () => {
    db =
      engine === 'postgres'
        ? await openDatabase({ databaseUrl: stack().databaseUrl, poolSize: 2 })
        : await openDatabase({ pgliteDir: dir });
    if (engine === 'pglite') await db.migrate();
    await loadTable(db, target, [...targetBounds], 150, 'old');
    await insertService(db.db, {
      serviceItemId,
      name: `swap_${serviceItemId}`,
      owner: 'admin',
      status: 'ready',
      definition: {},
      created: 0,
      modified: 0,
    });
    const layer = {
      serviceItemId,
      layerId: 0,
      tableName: target,
      definition: { name: 'places' },
      columns: [{ name: 'kind', column: 'a_0' }],
    };
    await upsertLayer(db.db, { ...layer, featureCount: 150 });
    await loadTable(db, staging, [...staged], 300, 'new');
    const before = await relationsNamed(db, staging);
    const parts = staged.length + (staged.length > 0 ? 1 : 0);
    // The table, its parts, and two indexes on each.
    expect(before).toHaveLength(3 + 3 * parts);

    expect(await swapInStagedLayers(db, serviceItemId, [{ ...layer, featureCount: 300 }], [staging])).toEqual(
      [],
    );

    // Everything named after the target (the staging name starts with it too): the staging relations
    // renamed, no old relation of the target's left, nothing named after the staging table.
    const renamed = (name: string) => (name === '' ? '' : `${target}${name.slice(staging.length)}`);
    const after = await relationsNamed(db, target);
    expect(after).toEqual(
      before
        .map((r) => ({ name: renamed(r.name), kind: r.kind, on: renamed(r.on) }))
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
    expect(after.map((r) => r.name)).toEqual(expect.arrayContaining([`${target}_pt`, `${target}_oid`]));
    if (parts > 0) {
      expect(after.map((r) => r.name)).toEqual(
        expect.arrayContaining([`${target}_p0_pt`, `${target}_p0_oid`, `${target}_p1`, `${target}_p2`]),
      );
      // A part's indexes carry its name, and the table's indexes still hold one of each part's.
      for (const r of after.filter((a) => a.on.startsWith(`${target}_p`))) expect(r.name).toMatch(`${r.on}_`);
      const attached = await db.rows<{ n: number }>(
        sql.raw(`select count(*)::int as n from pg_inherits where inhparent in
          ('"${target}_pt"'::regclass, '"${target}_oid"'::regclass)`),
      );
      expect(attached[0].n).toBe(2 * parts);
    }
    expect(await featureTableParts(db, target)).toEqual(
      parts === 0
        ? []
        : [
            { name: `${target}_p0`, from: null, to: 101, indexed: true, analyzed: true },
            { name: `${target}_p1`, from: 101, to: 201, indexed: true, analyzed: true },
            { name: `${target}_p2`, from: 201, to: null, indexed: true, analyzed: true },
          ],
    );
    const rows = await db.rows<{ objectid: number; kind: string }>(
      sql.raw(`select objectid, a_0 as kind from "${target}" order by objectid`),
    );
    expect(rows).toEqual(Array.from({ length: 300 }, (_, i) => ({ objectid: i + 1, kind: 'new' })));
    expect((await listLayers(db.db, serviceItemId)).map((l) => [l.tableName, l.featureCount])).toEqual([
      [target, 300],
    ]);
  });
});
