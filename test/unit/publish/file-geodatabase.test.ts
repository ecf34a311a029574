import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  fileGeodatabaseToGeoPackage,
  geodatabaseFiles,
} from '../../../activities/publish/file-geodatabase.js';
import { describeSqlite, openSqlite } from '../../../activities/publish/sqlite-catalog.js';

// towns.gdb.zip: made by make-fixture.sh beside it (GDAL 3.6's OpenFileGDB writer).
const zip = readFileSync('test/fixtures/publish/file-geodatabase/towns.gdb.zip');

describe('file geodatabases read through GDAL in WebAssembly', () => {
  it('every feature class and table, the feature dataset flattened, with domains', async () => {
    const db = await openSqlite(await fileGeodatabaseToGeoPackage(zip));
    const layers = await describeSqlite(db);
    expect(layers.map((l) => [l.name, l.geometryColumn !== null, l.wkid, l.count]).sort()).toEqual([
      ['inspections', false, null, 3],
      ['parcels', true, 32633, 2],
      ['places', true, 4326, 3],
      ['roads', true, 3857, 2],
    ]);
    const places = layers.find((l) => l.name === 'places');
    expect(places?.fields.find((f) => f.column === 'rank')).toMatchObject({
      type: 'esriFieldTypeSmallInteger',
      nullable: false,
      domain: { type: 'range', name: 'RankRange', range: [1, 10] },
    });
    expect(places?.fields.find((f) => f.column === 'name')).toMatchObject({ length: 30, nullable: false });
    const roads = layers.find((l) => l.name === 'roads');
    expect(roads?.fields.find((f) => f.column === 'lanes')?.domain).toEqual({
      type: 'codedValue',
      name: 'LaneCount',
      codedValues: [
        { name: 'Two lanes', code: 2 },
        { name: 'Four lanes', code: 4 },
      ],
    });
  }, 60_000);

  it('a zip without a .gdb folder is refused, naming what it holds', () => {
    const other = zipSync({ 'data/readme.txt': new TextEncoder().encode('hello') });
    expect(() => geodatabaseFiles({ 'data/readme.txt': other })).toThrow(/Unable to read the file/);
    try {
      geodatabaseFiles({ 'data/readme.txt': other });
    } catch (e) {
      expect((e as { details: string[] }).details[0]).toContain('it holds: data/readme.txt');
    }
  });
});
