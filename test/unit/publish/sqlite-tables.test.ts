import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planLayer } from '../../../activities/publish/layer-plan.js';
import { createRowEncoder } from '../../../activities/publish/row-encoder.js';
import { openSqlite } from '../../../activities/publish/sqlite-catalog.js';
import { sqliteBatches } from '../../../activities/publish/sqlite-source.js';
import { sqliteSourceTables } from '../../../activities/publish/sqlite-tables.js';
import {
  loadedFields,
  measuredTextFields,
  withMeasuredLengths,
} from '../../../activities/publish/sqlite-text-widths.js';
import type { PublishRequest } from '../../../db/schema/publish-request.js';

const bytes = (name: string) => readFileSync(`test/fixtures/publish/sqlite/${name}`);

const request = (extra: Partial<PublishRequest> = {}): PublishRequest => ({
  fileType: 'sqlite',
  sourceKey: 'k',
  sourceSize: 0,
  serviceName: 'towns',
  sourceSR: null,
  targetSR: { wkid: 102100, latestWkid: 3857 },
  layers: [{ id: 0, name: 'towns', location: { type: 'geometry' }, layerInfo: {} }],
  service: {
    description: '',
    copyrightText: '',
    maxRecordCount: -1,
    hasStaticData: false,
    capabilities: 'Query',
    hasAttachments: false,
    editorTrackingInfo: {},
    buildInitialCache: false,
    outputType: '',
  },
  persistErrorRecordsForReview: false,
  ...extra,
});

describe('GeoPackage tables as publish sources', async () => {
  const db = await openSqlite(bytes('towns.gpkg'));
  const tables = await sqliteSourceTables(db, request(), 1000);

  it('lists feature tables then attribute tables with their own spatial references', () => {
    expect(tables.map((t) => [t.layer.id, t.layer.name, t.geometryType, t.sourceSR])).toEqual([
      [0, 'places', 'esriGeometryPoint', { wkid: 4326 }],
      [1, 'roads', 'esriGeometryPolyline', { wkid: 3857 }],
      [2, 'parcels', 'esriGeometryPolygon', { wkid: 32633 }],
      [3, 'inspections', null, { wkid: 4326 }],
    ]);
  });

  it('plans the declared fields, not inferred ones', () => {
    const plan = planLayer({
      serviceItemId: 'a'.repeat(32),
      layer: tables[0].layer,
      sample: {
        headers: tables[0].headers,
        rows: tables[0].sampleRows,
        geometryType: tables[0].geometryType,
        declaredFields: tables[0].declaredFields,
      },
      source: tables[0].source,
      sourceSR: { wkid: 4326 },
    });
    expect(plan.fields.map((f) => [f.name, f.type, f.length ?? null, f.nullable ?? true])).toEqual([
      ['name', 'esriFieldTypeString', 30, false],
      ['population', 'esriFieldTypeBigInteger', null, true],
      ['area', 'esriFieldTypeDouble', null, true],
      ['founded', 'esriFieldTypeDate', null, true],
      ['updated', 'esriFieldTypeDate', null, true],
      ['rank', 'esriFieldTypeSmallInteger', null, false],
      ['active', 'esriFieldTypeSmallInteger', null, true],
    ]);
    expect(plan.geometryType).toBe('esriGeometryPoint');
  });

  it('a load resumed after a key reads only the rows after it', () => {
    const source = tables[0].source;
    if (source.kind !== 'sqlite') throw new Error('not a sqlite source');
    const all = [...sqliteBatches(db, source, 'esriGeometryPoint', { byteOffset: 0, rowNumber: 0 }, 2)];
    expect(all.map((b) => [b.firstRowNumber, b.rows.map((r) => r[0]), b.next])).toEqual([
      [0, ['Berlin', 'London'], { byteOffset: 2, rowNumber: 2 }],
      [2, ['Paris'], { byteOffset: 3, rowNumber: 3 }],
    ]);
    const resumed = [...sqliteBatches(db, source, 'esriGeometryPoint', all[0].next, 2)];
    expect(resumed.map((b) => [b.firstRowNumber, b.rows.map((r) => r[0])])).toEqual([[2, ['Paris']]]);
    // places declares z (gpkg_geometry_columns.z = 1): the point keeps ogrinfo's POINT Z (2.3522 48.8566 35).
    expect([source.hasZ, source.hasM]).toEqual([true, false]);
    expect(resumed[0].geometries).toEqual([{ x: 2.3522, y: 48.8566, z: 35 }]);
  });

  it('listed layers publish only those tables, and an id past the last table is refused', async () => {
    const listed = await sqliteSourceTables(
      db,
      request({
        listedLayers: true,
        layers: [{ id: 2, name: 'lots', location: { type: 'geometry' }, layerInfo: {} }],
      }),
      10,
    );
    expect(listed.map((t) => [t.layer.id, t.layer.name, t.described.table])).toEqual([
      [2, 'lots', 'parcels'],
    ]);
    await expect(
      sqliteSourceTables(
        db,
        request({
          listedLayers: true,
          layers: [{ id: 7, name: 'x', location: { type: 'geometry' }, layerInfo: {} }],
        }),
        10,
      ),
    ).rejects.toThrow(/Invalid publishParameters/);
  });
});

describe('text columns without a declared width', async () => {
  // A plain SQLite table written by sqlite3: `note` is TEXT (no width), `code` TEXT(8).
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-widths-'));
  const path = join(dir, 'notes.sqlite');
  execFileSync('sqlite3', [
    path,
    "create table notes (id integer primary key, note text, code text(8)); insert into notes (note, code) values ('short', 'a'), (printf('%.300c', 'x'), 'b'), ('é', 'c');",
  ]);
  const file = readFileSync(path);
  rmSync(dir, { recursive: true, force: true });
  const db = await openSqlite(file);
  const publishing = await sqliteSourceTables(db, request({ fileType: 'sqlite' }), 10);
  const analyzing = await sqliteSourceTables(db, request({ fileType: 'sqlite' }), 10, undefined, true);
  const planOf = (t: (typeof publishing)[number]) =>
    planLayer({
      serviceItemId: 'a'.repeat(32),
      layer: { ...t.layer, location: { type: 'none' } },
      sample: {
        headers: t.headers,
        rows: t.sampleRows,
        geometryType: null,
        declaredFields: t.declaredFields,
      },
      source: t.source,
      sourceSR: { wkid: 4326 },
    });

  it('a publish plans them without reading every row; analyze measures them (bytes, at least 256)', () => {
    expect(publishing[0].source).toMatchObject({ kind: 'sqlite', measuredText: ['note'] });
    expect(publishing[0].count).toBeUndefined();
    expect(publishing[0].declaredFields?.map((f) => f.length ?? null)).toEqual([null, 8]);
    expect(analyzing[0].source).not.toHaveProperty('measuredText');
    expect(analyzing[0].count).toBe(3);
    expect(analyzing[0].declaredFields?.map((f) => f.length ?? null)).toEqual([300, 8]);
  });

  it('the load bounds only declared widths, and the finished length is the longest loaded', () => {
    const plan = planOf(publishing[0]);
    const measured = measuredTextFields(plan);
    expect(measured.map((f) => f.name)).toEqual(['note']);
    expect(loadedFields(plan).map((f) => f.length ?? null)).toEqual([null, 8]);
    const encoded = createRowEncoder(plan, { wkid: 4326 }).encode(
      [
        ['y'.repeat(400), 'ok'],
        ['fine', 'too long!'],
      ],
      0,
    );
    expect(encoded.loaded).toBe(1);
    expect(encoded.rejected.map((r) => r.reason)).toEqual([
      'Value of code is 9 characters long; the field holds 8.',
    ]);
    expect(withMeasuredLengths(plan, measured, [300]).fields.map((f) => f.length)).toEqual([300, 8]);
    expect(withMeasuredLengths(plan, measured, [12]).fields.map((f) => f.length)).toEqual([256, 8]);
    // Plans made before (no measuredText) keep their lengths and bounds.
    const older = { ...plan, source: { ...plan.source, measuredText: undefined } };
    expect(measuredTextFields(older)).toEqual([]);
    expect(loadedFields(older)).toBe(older.fields);
  });
});

describe('SQLite files that cannot be published', () => {
  it('a file cut short is refused before any row is read', async () => {
    await expect(openSqlite(bytes('towns.gpkg').subarray(0, 40_000))).rejects.toThrow(
      /Unable to read the file/,
    );
  });

  it('a catalog table its CREATE statement does not define is refused with a 400 naming it', async () => {
    // Found by the abuse suite: one byte of the CREATE statement of spatial_ref_sys changed, so the
    // statement makes another table and the catalog's copy of spatial_ref_sys had no columns to fill.
    const file = Buffer.from(bytes('towns-wkb.sqlite'));
    const at = file.indexOf('CREATE TABLE spatial_ref_sys');
    expect(at).toBeGreaterThan(0);
    file[at + 'CREATE TABLE '.length] = 0x80;
    await expect(openSqlite(file)).rejects.toMatchObject({
      code: 400,
      details: ['The table spatial_ref_sys cannot be read: its CREATE statement does not define it.'],
    });
  });

  it('a file that is not SQLite is refused', async () => {
    await expect(openSqlite(Buffer.from('name,x,y\nA,1,2\n'.repeat(10)))).rejects.toMatchObject({
      details: ['The file is not a SQLite database or GeoPackage (no SQLite header).'],
    });
  });
});
