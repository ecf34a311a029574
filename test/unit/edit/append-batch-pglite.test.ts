import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  appendBatch,
  beginLayerAppend,
  EditAborted,
  writeEditedLayer,
} from '../../../db/repositories/feature-edit-layer.js';
import { inEditTransaction } from '../../../db/repositories/feature-edits.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { findLayer, findService, insertService, upsertLayer } from '../../../db/repositories/services.js';
import { editLayerOf } from '../../../lib/edit/edit-layer.js';

// append's set writes on the embedded database of `npm start`: json_to_recordset, savepoints, sequences.
describe('append batches on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'append-batch-'));
  const itemId = 'a'.repeat(32);
  const table = featureTableName(itemId, 0);
  const columns = [
    { name: 'Name', column: 'a_0', type: 'esriFieldTypeString' as const },
    { name: 'Depth', column: 'a_1', type: 'esriFieldTypeDouble' as const },
  ];
  const sr = { wkid: 102100, latestWkid: 3857 };
  const definition = {
    geometryType: 'esriGeometryPoint',
    capabilities: 'Query,Editing',
    fields: [
      { name: 'OBJECTID', type: 'esriFieldTypeOID' },
      { name: 'Name', type: 'esriFieldTypeString', length: 10 },
      { name: 'Depth', type: 'esriFieldTypeDouble', defaultValue: 2.5 },
    ],
    extent: { xmin: 1, ymin: 1, xmax: 1, ymax: 1, spatialReference: sr },
  };
  const layerColumns = [
    { name: 'OBJECTID', column: 'objectid' },
    { name: 'Name', column: 'a_0' },
    { name: 'Depth', column: 'a_1' },
  ];
  const ctx = { inSR: sr, storage: sr, editor: 'admin', now: 1_700_000_000_000 };
  const editor = { username: 'admin', privileged: true };
  const model = editLayerOf(0, table, definition, layerColumns);
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: dir });
    await database.migrate();
    await insertService(database.db, {
      serviceItemId: itemId,
      name: 'pglite_append',
      owner: 'admin',
      status: 'ready',
      definition: { spatialReference: sr },
      created: 1,
      modified: 1,
    });
    await createFeatureTable(database, table, columns);
    await copyRows(database, table, copyColumns(columns), '1\tone\t1\t{"x":1,"y":1}\t(1,1),(1,1)\n');
    await database.rows(sql.raw(`create unique index pglite_append_name on ${table} (a_0)`));
    await upsertLayer(database.db, {
      serviceItemId: itemId,
      layerId: 0,
      tableName: table,
      definition,
      columns: layerColumns,
      featureCount: 1,
    });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = async () =>
    (
      await database.rows<{ objectid: number; a_0: string; a_1: number | null; b: string | null }>(
        sql.raw(`select objectid, a_0, a_1, bbox::text as b from ${table} order by objectid`),
      )
    ).map((r) => [Number(r.objectid), r.a_0, r.a_1 === null ? null : Number(r.a_1), r.b]);

  const apply = (
    adds: { attributes: Record<string, unknown>; geometry?: unknown }[],
    updates: { attributes: Record<string, unknown>; geometry?: unknown }[],
    rollback: boolean,
  ) =>
    findService(database.db, itemId).then((service) =>
      inEditTransaction(database, async (tx) => {
        const locked = await beginLayerAppend(tx, service!, model);
        const out = await appendBatch(tx, model, { adds, updates }, ctx, editor, rollback);
        const added = out.addResults.filter((r) => r.success).length;
        await writeEditedLayer(tx, itemId, model, locked, added, out.areas, ctx);
        return out;
      }),
    );

  it('writes adds and updates as sets, with defaults, and the layer count and extent after', async () => {
    const out = await apply(
      [
        { attributes: { Name: 'two', Depth: 4 }, geometry: { x: 5, y: 6 } },
        { attributes: { Name: 'three' }, geometry: { x: -2, y: 3 } },
        { attributes: { Name: 'no shape', Depth: null } },
      ],
      [{ attributes: { OBJECTID: 1, Name: 'uno' }, geometry: { x: 1, y: 9 } }],
      false,
    );
    expect(out.addResults.map((r) => [r.objectId, r.success])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(out.updateResults.map((r) => [r.objectId, r.success])).toEqual([[1, true]]);
    expect(await rows()).toEqual([
      [1, 'uno', 1, '(1,9),(1,9)'],
      [2, 'two', 4, '(5,6),(5,6)'],
      [3, 'three', 2.5, '(-2,3),(-2,3)'],
      [4, 'no shape', null, null],
    ]);
    const layer = (await findLayer(database.db, itemId, 0))!;
    expect(layer.featureCount).toBe(4);
    expect(layer.definition.extent).toMatchObject({ xmin: -2, ymin: 3, xmax: 5, ymax: 9 });
  });

  it('a set the unique index refuses is written row by row: that row fails alone, ids as applyEdits gives them', async () => {
    const out = await apply(
      [
        { attributes: { Name: 'five' }, geometry: { x: 0, y: 0 } },
        { attributes: { Name: 'two' }, geometry: { x: 0, y: 0 } },
        { attributes: { Name: 'far too long' }, geometry: { x: 0, y: 0 } },
        { attributes: { Name: 'six' }, geometry: { x: 0, y: 0 } },
      ],
      [],
      false,
    );
    expect(out.addResults.map((r) => (r.success ? r.objectId : r.error?.description))).toEqual([
      5,
      'The value breaks a unique index of the layer: another feature holds it.',
      expect.stringMatching(/Name/),
      // As row by row: the refused insert took id 6, the value refused before writing none.
      7,
    ]);
    expect((await rows()).map((r) => r[1])).toEqual(['uno', 'two', 'three', 'no shape', 'five', 'six']);
  });

  it('under rollbackOnFailure the refused row aborts the transaction, naming its place', async () => {
    const before = await rows();
    const failure = await apply(
      [
        { attributes: { Name: 'seven' }, geometry: { x: 0, y: 0 } },
        { attributes: { Name: 'uno' }, geometry: { x: 0, y: 0 } },
      ],
      [],
      true,
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EditAborted);
    expect([(failure as EditAborted).kind, (failure as EditAborted).index]).toEqual(['add', 1]);
    expect(await rows()).toEqual(before);
  });

  it('a feature updated twice in one batch ends with the later update, as written in order', async () => {
    const out = await apply(
      [],
      [
        { attributes: { OBJECTID: 2, Depth: 10 } },
        { attributes: { OBJECTID: 3, Depth: 30 } },
        { attributes: { OBJECTID: 2, Depth: 20 } },
      ],
      false,
    );
    expect(out.updateResults.map((r) => [r.objectId, r.success])).toEqual([
      [2, true],
      [3, true],
      [2, true],
    ]);
    const depth = new Map((await rows()).map((r) => [r[0], r[2]]));
    expect([depth.get(2), depth.get(3)]).toEqual([20, 30]);
  });
});
