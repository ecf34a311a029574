/**
 * A layer whose table was loaded in parts (a large publish on PostgreSQL: createFeatureTable's
 * partBounds) takes the admin API's indexes as a plain table does. PostgreSQL builds a unique index on
 * a partitioned table only with the object id in it, so a unique index on fields turns the table into
 * one plain table first: same columns and rows, its indexes under their names, its object-id sequence
 * going on where it was. The table here is cut into parts by the test, as a large load would have.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  copyColumns,
  createFeatureTable,
  type FeatureColumn,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { findLayer } from '../../../db/repositories/services.js';
import type { EsriFieldType } from '../../../lib/query/field-types.js';
import { physicalIndexName } from '../../../lib/service/definition-changes.js';
import { EDITABLE, type EditableService, edit, features, publishCsv } from '../editing/edit-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

// moorings.csv: OBJECTID i is 'Mooring i' with Code c0i/ci and Visits 10·i, for i = 1..12; Berth is
// b<i>, but for 9, which shares b1 with 1, in another part.
const MOORINGS = join(import.meta.dirname, 'moorings.csv');
/** Parts: object ids 1-4, 5-8 and from 9 on. */
const PART_BOUNDS = [5, 9];
const UNIQUE = {
  code: 1000,
  description: 'The value breaks a unique index of the layer: another feature holds it.',
};

describe('indexes of a layer whose table is in parts', () => {
  let token: string;
  let svc: EditableService;
  let database: DatabaseHandle;
  let table: string;
  /** The physical column of a field. */
  let columnOf: (field: string) => string;
  const layerAdmin = () => `/rest/admin/services/Hosted/${svc.name}/FeatureServer/0`;
  const change = (op: string, body: unknown) => edit(`${layerAdmin()}/${op}`, token, { [op]: body });
  const query = <T>(text: string) => database.rows<T>(sql.raw(text));

  const relkind = async () =>
    (
      await query<{ kind: string }>(
        `select relkind::text as kind from pg_class where oid = '"${table}"'::regclass`,
      )
    )[0].kind;
  const partsOf = async () =>
    (
      await query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = '"${table}"'::regclass order by 1`,
      )
    ).map((r) => r.name);
  /** The table's own indexes and their definitions. */
  const indexesOf = async () =>
    query<{ name: string; definition: string }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indexrelid
       where i.indrelid = '"${table}"'::regclass order by 1`,
    );
  const columnList = () =>
    query<{ name: string; type: string; notnull: boolean; default: string | null }>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
         pg_get_expr(d.adbin, d.adrelid) as default
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where a.attrelid = '"${table}"'::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    );
  const rowSet = async () =>
    (await query<{ row: string }>(`select to_jsonb(f)::text as row from "${table}" f order by objectid`)).map(
      (r) => r.row,
    );

  beforeAll(async () => {
    token = await signIn();
    svc = await publishCsv(token, MOORINGS, EDITABLE);
    database = await openDatabase({ databaseUrl: stack().databaseUrl, poolSize: 2 });
    const layer = (await findLayer(database.db, svc.serviceItemId, 0))!;
    table = layer.tableName;
    const fields = layer.definition.fields as { name: string; type: EsriFieldType }[];
    // The attribute columns (the object id's is the table's own).
    const columns: FeatureColumn[] = layer.columns
      .filter((c) => /^a_\d+$/.test(c.column))
      .map((c) => ({ ...c, type: fields.find((f) => f.name === c.name)!.type }));
    columnOf = (field) => layer.columns.find((c) => c.name === field)!.column;
    // The published rows, loaded again into the same table cut into parts, as a large load leaves it.
    const copied = copyColumns(columns)
      .map((c) => `"${c}"`)
      .join(', ');
    await query(`create table "${table}_held" as select * from "${table}"`);
    await createFeatureTable(database, table, columns, PART_BOUNDS);
    await query(`insert into "${table}" (${copied}) select ${copied} from "${table}_held"`);
    await query(`drop table "${table}_held"`);
    await indexFeatureTable(database, table, layer.definition.geometryType as string);
    expect(await relkind()).toBe('p');
    const spread = await query<{ part: string; n: number }>(
      `select tableoid::regclass::text as part, count(*)::int as n from "${table}" group by 1 order by 1`,
    );
    expect(spread).toEqual([0, 1, 2].map((k) => ({ part: `${table}_p${k}`, n: 4 })));
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('refuses a unique index over values two parts share with the usual message, leaving the parts', async () => {
    const res = await change('addToDefinition', {
      indexes: [{ name: 'berth_idx', fields: 'Berth', isUnique: true }],
    });
    expect(res.error.code).toBe(400);
    expect(res.error.details).toEqual([
      'A unique index cannot be built: some features share the same values in its fields.',
    ]);
    expect(await relkind()).toBe('p');
    expect(await partsOf()).toEqual([0, 1, 2].map((k) => `${table}_p${k}`));
    expect((await call(svc.layer, { token }, { method: 'GET' })).json.indexes).toEqual([]);
  });

  it('leaves the table in parts when a request fails after a unique index had made it plain', async () => {
    const rows = await rowSet();
    // Code's index turns the table plain and is built; Berth's then finds b1 twice.
    const res = await change('addToDefinition', {
      indexes: [
        { name: 'code_first', fields: 'Code', isUnique: true },
        { name: 'berth_after', fields: 'Berth', isUnique: true },
      ],
    });
    expect(res.error.code).toBe(400);
    expect(await relkind()).toBe('p');
    expect(await partsOf()).toEqual([0, 1, 2].map((k) => `${table}_p${k}`));
    expect((await indexesOf()).map((i) => i.name)).toEqual([`${table}_oid`, `${table}_pt`]);
    expect(await rowSet()).toEqual(rows);
  });

  it('builds an index that is not unique on every part, and deleteFromDefinition drops it from each', async () => {
    const physical = physicalIndexName(table, 'visits_idx');
    const partIndexes = () =>
      query<{ part: string }>(
        `select c.relname as part from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = to_regclass('"${physical}"') order by 1`,
      );
    expect(await change('addToDefinition', { indexes: [{ name: 'visits_idx', fields: 'Visits' }] })).toEqual({
      success: true,
    });
    expect(await relkind()).toBe('p');
    expect(await partIndexes()).toHaveLength(3);
    expect(await change('deleteFromDefinition', { indexes: [{ name: 'visits_idx' }] })).toEqual({
      success: true,
    });
    expect((await indexesOf()).map((i) => i.name)).toEqual([`${table}_oid`, `${table}_pt`]);
    expect(await partIndexes()).toEqual([]);
  });

  describe('a unique index on a field whose values differ', () => {
    const before: { columns: unknown[]; rows: string[] } = { columns: [], rows: [] };
    let nameIndex: string;
    let codeIndex: string;

    beforeAll(async () => {
      nameIndex = physicalIndexName(table, 'name_idx');
      codeIndex = physicalIndexName(table, 'code_idx');
      // An index of the user's made while the table is in parts, and object ids handed out by edits:
      // 13 and 14, then 14 deleted, so the highest ever handed out is above every id in the table.
      expect(await change('addToDefinition', { indexes: [{ name: 'name_idx', fields: 'Name' }] })).toEqual({
        success: true,
      });
      const added = await edit(`${svc.layer}/applyEdits`, token, {
        adds: [13, 14].map((i) => ({
          attributes: { Name: `Mooring ${i}`, Berth: `b${i}`, Code: `c${i}`, Visits: 10 * i },
          geometry: { x: -9750000 + i, y: 5140000 },
        })),
      });
      expect(added.addResults.map((r: any) => r.objectId)).toEqual([13, 14]);
      const deleted = await edit(`${svc.layer}/deleteFeatures`, token, { objectIds: '14' });
      expect(deleted.deleteResults.map((r: any) => [r.objectId, r.success])).toEqual([[14, true]]);
      expect(await relkind()).toBe('p');
      before.columns = await columnList();
      before.rows = await rowSet();
      expect(before.rows).toHaveLength(13);
      expect(
        await change('addToDefinition', { indexes: [{ name: 'code_idx', fields: 'Code', isUnique: true }] }),
      ).toEqual({ success: true });
    }, 120_000);

    it('turns the table into one plain table with the same columns and rows', async () => {
      expect(await relkind()).toBe('r');
      expect(await partsOf()).toEqual([]);
      expect(await columnList()).toEqual(before.columns);
      expect(await rowSet()).toEqual(before.rows);
    });

    it('keeps the object-id, spatial and earlier indexes under their names beside the unique one', async () => {
      const on = `ON public.${table} USING btree`;
      expect(await indexesOf()).toEqual(
        [
          { name: `${table}_oid`, definition: `CREATE UNIQUE INDEX ${table}_oid ${on} (objectid)` },
          {
            name: `${table}_pt`,
            definition: `CREATE INDEX ${table}_pt ON public.${table} USING gist ((bbox[0]))`,
          },
          { name: nameIndex, definition: `CREATE INDEX ${nameIndex} ${on} (${columnOf('Name')})` },
          { name: codeIndex, definition: `CREATE UNIQUE INDEX ${codeIndex} ${on} (${columnOf('Code')})` },
        ].sort((a, b) => (a.name < b.name ? -1 : 1)),
      );
      // Statistics for the planner, as the load had left on each part.
      const [{ analyzed }] = await query<{ analyzed: boolean }>(
        `select exists (select 1 from pg_statistic where starelid = '"${table}"'::regclass) as analyzed`,
      );
      expect(analyzed).toBe(true);
    });

    it('the unique index refuses a second feature with a code another holds', async () => {
      const res = await edit(`${svc.layer}/applyEdits`, token, {
        updates: [{ attributes: { OBJECTID: 2, Code: 'c03' } }],
        rollbackOnFailure: false,
      });
      expect(res.updateResults).toEqual([
        { objectId: 2, uniqueId: 2, globalId: null, success: false, error: UNIQUE },
      ]);
      expect((await features(svc, token, 'OBJECTID = 2'))[0].attributes.Code).toBe('c02');
    });

    it('hands out object ids above the highest ever handed out, from the same sequence', async () => {
      const [{ owner }] = await query<{ owner: string | null }>(
        `select pg_get_serial_sequence('"${table}"', 'objectid') as owner`,
      );
      expect(owner).toBe(`public.${table}_oidseq`);
      const res = await edit(`${svc.layer}/addFeatures`, token, {
        features: [
          { attributes: { Name: 'Mooring 15', Code: 'c15' }, geometry: { x: -9750000, y: 5140000 } },
        ],
      });
      expect(res.addResults.map((r: any) => [r.objectId, r.success])).toEqual([[15, true]]);
    });

    it('an append upserting on the field updates the features holding its values and adds the rest', async () => {
      const added = await call(`/sharing/rest/content/users/${stack().admin.username}/addItem`, {
        token,
        type: 'CSV',
        title: `moorings upsert ${Date.now()}`,
        text: 'Code,Name,Visits\nc02,Mooring Two,21\nc11,Mooring Eleven,111\nc99,Mooring 99,7\n',
      });
      const res = await edit(`${svc.layer}/append`, token, {
        appendItemId: added.json.id,
        upsert: true,
        upsertMatchingField: 'Code',
      });
      expect(res.status).toBe('Completed');
      expect(res.updateResults.map((r: any) => [r.objectId, r.success])).toEqual([
        [2, true],
        [11, true],
      ]);
      expect(res.addResults.map((r: any) => [r.objectId, r.success])).toEqual([[16, true]]);
      const rows = (await features(svc, token, "Code IN ('c01', 'c02', 'c11', 'c99')")).map((f) => [
        f.attributes.OBJECTID,
        f.attributes.Code,
        f.attributes.Name,
        f.attributes.Visits,
        f.attributes.Berth,
      ]);
      expect(rows).toEqual([
        [1, 'c01', 'Mooring 1', 10, 'b1'],
        [2, 'c02', 'Mooring Two', 21, 'b2'],
        [11, 'c11', 'Mooring Eleven', 111, 'b11'],
        [16, 'c99', 'Mooring 99', 7, null],
      ]);
    });
  });
});
