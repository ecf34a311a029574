import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../api/env.js';
import { applyEdits } from '../../../api/services/feature-edits.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { findLayer, findService, insertService, upsertLayer } from '../../../db/repositories/services.js';

// The embedded database of `npm start`: edits run in PGlite's one-connection transactions too.
describe('feature edits on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-edits-'));
  const itemId = 'e'.repeat(32);
  const table = featureTableName(itemId, 0);
  const columns = [{ name: 'Name', column: 'a_0', type: 'esriFieldTypeString' as const }];
  let database: DatabaseHandle;
  let deps: AppDeps;
  let clock = 1_700_000_000_000;

  const layerRow = async () => (await findLayer(database.db, itemId, 0))!;
  const service = async () => (await findService(database.db, itemId))!;
  const run = async (edits: { adds?: unknown[]; updates?: unknown[]; deletes?: number[] }, rollback = true) =>
    (
      await applyEdits(
        deps,
        await service(),
        [{ layer: await layerRow(), edits: { adds: [], updates: [], deletes: [], ...edits } as never }],
        { user: undefined, inSR: null, rollbackOnFailure: rollback },
      )
    )[0];

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: dir });
    await database.migrate();
    deps = {
      database,
      now: () => clock++,
      log: { warn: () => {}, info: () => {}, error: () => {} },
    } as unknown as AppDeps;
    const sr = { wkid: 102100, latestWkid: 3857 };
    await insertService(database.db, {
      serviceItemId: itemId,
      name: 'pglite_edits',
      owner: 'admin',
      status: 'ready',
      definition: { spatialReference: sr },
      created: clock,
      modified: clock,
    });
    await createFeatureTable(database, table, columns);
    await copyRows(database, table, copyColumns(columns), '1\tone\t{"x":1,"y":1}\t(1,1),(1,1)\n');
    await upsertLayer(database.db, {
      serviceItemId: itemId,
      layerId: 0,
      tableName: table,
      definition: {
        geometryType: 'esriGeometryPoint',
        capabilities: 'Query,Editing',
        fields: [
          { name: 'OBJECTID', type: 'esriFieldTypeOID' },
          { name: 'Name', type: 'esriFieldTypeString', length: 10 },
        ],
        extent: { xmin: 1, ymin: 1, xmax: 1, ymax: 1, spatialReference: sr },
      },
      columns: [
        { name: 'OBJECTID', column: 'objectid' },
        { name: 'Name', column: 'a_0' },
      ],
      featureCount: 1,
    });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async () =>
    (
      await database.rows<{ objectid: number; a_0: string }>(
        sql.raw(`select objectid, a_0 from ${table} order by objectid`),
      )
    ).map((r) => [Number(r.objectid), r.a_0]);

  it('adds, updates and deletes commit together and the layer row follows', async () => {
    const r = await run({
      adds: [{ attributes: { Name: 'two' }, geometry: { x: 5, y: 6 } }],
      updates: [{ attributes: { OBJECTID: 1, Name: 'uno' } }],
    });
    expect(r.addResults).toEqual([{ objectId: 2, uniqueId: 2, globalId: null, success: true }]);
    expect(await names()).toEqual([
      [1, 'uno'],
      [2, 'two'],
    ]);
    const layer = await layerRow();
    expect(layer.featureCount).toBe(2);
    expect(layer.definition.extent).toMatchObject({ xmin: 1, ymin: 1, xmax: 5, ymax: 6 });
  });

  it('a failed edit rolls the whole request back', async () => {
    const r = await run({
      adds: [{ attributes: { Name: 'three' }, geometry: { x: 1, y: 1 } }],
      deletes: [1],
      updates: [{ attributes: { OBJECTID: 2, Name: 'far too long a name' } }],
    });
    expect(r.deleteResults[0].error).toEqual({ code: 1003, description: 'Operation rolled back.' });
    expect(await names()).toEqual([
      [1, 'uno'],
      [2, 'two'],
    ]);
    expect((await layerRow()).featureCount).toBe(2);
  });

  it('concurrent requests get distinct ids that are never reused', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((i) => run({ adds: [{ attributes: { Name: `c${i}` }, geometry: { x: i, y: i } }] })),
    );
    const ids = results.map((r) => r.addResults[0].objectId).sort();
    // 3 went to the add the rollback above undid.
    expect(ids).toEqual([4, 5, 6]);
    await run({ deletes: [6] });
    const again = await run({ adds: [{ attributes: { Name: 'after' }, geometry: { x: 0, y: 0 } }] });
    expect(again.addResults[0].objectId).toBe(7);
    expect((await layerRow()).featureCount).toBe(5);
  });

  it('a write the unique index refuses is the error of that edit, the rest rolled back, nothing applied', async () => {
    await database.rows(sql.raw(`create unique index pglite_edits_name on ${table} (a_0)`));
    const before = await names();
    const r = await run({
      adds: [{ attributes: { Name: 'new' }, geometry: { x: 2, y: 2 } }],
      updates: [{ attributes: { OBJECTID: 2, Name: 'uno' } }],
    });
    expect(r.addResults).toEqual([
      { globalId: null, success: false, error: { code: 1003, description: 'Operation rolled back.' } },
    ]);
    expect(r.updateResults).toEqual([
      {
        objectId: 2,
        uniqueId: 2,
        globalId: null,
        success: false,
        error: {
          code: 1000,
          description: 'The value breaks a unique index of the layer: another feature holds it.',
        },
      },
    ]);
    expect(await names()).toEqual(before);
    // Without rollbackOnFailure the same refusal fails that edit alone.
    const alone = await run({ updates: [{ attributes: { OBJECTID: 2, Name: 'uno' } }] }, false);
    expect(alone.updateResults[0].error?.description).toMatch(/unique index/);
    await database.rows(sql.raw('drop index pglite_edits_name'));
  });
});
