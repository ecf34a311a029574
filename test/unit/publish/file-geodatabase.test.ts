import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  convertFileGeodatabase,
  fileGeodatabaseToGeoPackage,
  geodatabaseFiles,
} from '../../../activities/publish/file-geodatabase.js';
import { describeSqlite, openSqlite } from '../../../activities/publish/sqlite-catalog.js';
import { DEFAULT_ARCHIVE_BUDGET } from '../../../lib/ingest/archive-budget.js';
import { zipBomb } from '../../fixtures/ingest/zip-writer.js';

// towns.gdb.zip: made by make-fixture.sh beside it (GDAL 3.6's OpenFileGDB writer).
const zip = readFileSync('test/fixtures/publish/file-geodatabase/towns.gdb.zip');

describe('file geodatabases read through GDAL in WebAssembly', () => {
  it('every feature class and table, the feature dataset flattened, with domains', async () => {
    const db = await openSqlite(await fileGeodatabaseToGeoPackage(zip));
    const layers = await describeSqlite(db, { measure: true });
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

  it('the relationship classes are read as Debian GDAL 3.6 (Python, OpenFileGDB) reads them', async () => {
    // related.gdb.zip: made by make-related-fixture.py beside it (reinspections relates inspections to
    // itself; parks_wardens names a table the file does not hold).
    const bytes = readFileSync('test/fixtures/publish/file-geodatabase/related.gdb.zip');
    const dir = mkdtempSync(join(tmpdir(), 'related-gdb-'));
    try {
      for (const [name, data] of Object.entries(unzipSync(bytes))) {
        if (name.endsWith('/')) continue;
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), data);
      }
      const script = [
        'import json, sys',
        'from osgeo import gdal',
        'ds = gdal.OpenEx(sys.argv[1])',
        'out = {}',
        'for n in ds.GetRelationshipNames():',
        '  r = ds.GetRelationship(n)',
        '  out[n] = dict(cardinality=r.GetCardinality(), composite=r.GetType() == gdal.GRT_COMPOSITE, left=r.GetLeftTableName(), right=r.GetRightTableName(), leftFields=r.GetLeftTableFields(), rightFields=r.GetRightTableFields(), mapping=r.GetMappingTableName(), leftMapping=r.GetLeftMappingTableFields() or [], rightMapping=r.GetRightMappingTableFields() or [])',
        'print(json.dumps(out))',
      ].join('\n');
      const debian = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', script, join(dir, 'related.gdb')], { encoding: 'utf8' }),
      ) as Record<string, Record<string, unknown>>;
      const cardinalities: Record<number, string> = { 0: 'OneToOne', 1: 'OneToMany', 3: 'ManyToMany' };
      const names = ['park_species', 'parks_inspections', 'parks_wardens', 'reinspections'];
      expect(Object.keys(debian).sort()).toEqual(names);
      const { relationships } = await convertFileGeodatabase(bytes);
      expect(Object.keys(relationships).sort()).toEqual(names);
      for (const name of names) {
        const ours = relationships[name];
        const theirs = debian[name];
        expect(ours.cardinality).toBe(cardinalities[Number(theirs.cardinality)] ?? 'unexpected');
        expect(ours.type === 'Composite').toBe(theirs.composite);
        expect([ours.left_table_name, ours.right_table_name]).toEqual([theirs.left, theirs.right]);
        expect([ours.left_table_fields, ours.right_table_fields]).toEqual([
          theirs.leftFields,
          theirs.rightFields,
        ]);
        expect(ours.mapping_table_name ?? '').toBe(theirs.mapping);
        expect([ours.left_mapping_table_fields ?? [], ours.right_mapping_table_fields ?? []]).toEqual([
          theirs.leftMapping,
          theirs.rightMapping,
        ]);
      }
      expect(debian.park_species.mapping).toBe('park_species');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a zip bomb dressed as a geodatabase by the archive budget, before GDAL sees it', async () => {
    // 4 GiB of zeros deflated into about 4 MiB: past 100 times the archive's size long before its end.
    const bomb = zipBomb('bomb.gdb/a00000001.gdbtable', 4096);
    const before = process.memoryUsage().arrayBuffers;
    await expect(convertFileGeodatabase(bomb)).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        message: 'Unable to read the file.',
        details: ['The archive inflates to more than 100 times its compressed size (ARCHIVE_MAX_RATIO).'],
      }),
    );
    // What was inflated before the refusal: at most the budget (100 times about 4 MiB), not 4 GiB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(512 * 1024 ** 2);
    const budget = { ...DEFAULT_ARCHIVE_BUDGET, maxBytes: 1024 ** 2 };
    await expect(convertFileGeodatabase(bomb, budget)).rejects.toThrow(
      expect.objectContaining({
        details: ['The archive inflates to more than 1048576 bytes (ARCHIVE_MAX_INFLATED_BYTES).'],
      }),
    );
  });

  it('refuses with a 400 a geodatabase whose catalog table GDAL cannot open, naming no build path', async () => {
    // Found by the abuse suite: gdal3.js rejects the open with a list of GDAL's errors, which reached
    // the job as a non-client error (retried, then a 500).
    const files = unzipSync(zip);
    files['towns.gdb/a00000001.gdbtable'] = files['towns.gdb/a00000001.gdbtable'].subarray(0, 40);
    const damaged = zipSync(files);
    await expect(convertFileGeodatabase(damaged)).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: [
          expect.stringMatching(
            /^GDAL cannot open the file geodatabase: a damaged table file \(filegdbtable\.cpp line \d+\)$/,
          ),
        ],
      }),
    );
  });
});
