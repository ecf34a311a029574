import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyzeFeatureCollection, analyzeSqlite } from '../../../activities/publish/analyze-tables.js';
import { sampleFromBytes } from '../../../activities/publish/csv-source.js';
import { convertGeodatabase } from '../../../activities/publish/file-geodatabase.js';
import { describeGeoJson, geoJsonFeatures } from '../../../activities/publish/geojson-source.js';
import { readShapefileZip } from '../../../activities/publish/shapefile-zip.js';
import { bytesSource, sevenZipEntries, sevenZipNames } from '../../../infra/service-definition.js';
import { DEFAULT_ARCHIVE_BUDGET, unzipWithBudget } from '../../../lib/ingest/archive-budget.js';
import { describeTilePackage, packageTiles, readPackageDefinition } from '../../../lib/tiles/tile-package.js';
import { readEnvelope } from '../../../soap/envelope-reader.js';
import { SoapFault } from '../../../soap/fault.js';
import { sevenZipOf } from '../../fixtures/ingest/seven-zip.js';
import { writeZip } from '../../fixtures/ingest/zip-writer.js';
import { fuzzSuite, succeedsOrRefuses, succeedsOrRefusesAsync } from './fuzz-support.js';

const suite = fuzzSuite('files and SOAP');
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'publish', name));
const wards = fixture('wards-stateplane.zip');
const parks = fixture('parks-mixed-properties.geojson');
const budget = { ...DEFAULT_ARCHIVE_BUDGET, maxBytes: 64 * 1024 ** 2 };
const gpkg = fixture('sqlite/towns.gpkg');
const wkbSqlite = fixture('sqlite/towns-wkb.sqlite');
/** A small service definition, written by 7-Zip: a file geodatabase's names and an item description. */
const sd = Buffer.from(
  await sevenZipOf({
    'esriinfo/iteminfo.xml': '<ESRI_ItemInformation><title>towns</title></ESRI_ItemInformation>',
    'v101/towns.gdb/a00000001.gdbtable': 'table '.repeat(200),
    'v101/towns.gdb/a00000001.gdbtablx': 'index '.repeat(50),
  }),
);

/** Up to `maxEdits` bytes of a file overwritten, all within its first `span` bytes. */
const overwritten = (good: Buffer, span: number, maxEdits: number) =>
  fc
    .array(fc.tuple(fc.nat({ max: Math.min(span, good.length) - 1 }), fc.integer({ min: 0, max: 255 })), {
      minLength: 1,
      maxLength: maxEdits,
    })
    .map((edits) => {
      const copy = Buffer.from(good);
      for (const [at, byte] of edits) copy[at] = byte;
      return copy;
    });

/** A file as an attacker shapes it from a good one: cut short, bytes overwritten, or bytes inserted. */
const mutated = (good: Buffer) =>
  fc.oneof(
    fc.nat({ max: good.length }).map((n) => good.subarray(0, n)),
    overwritten(good, good.length, 8),
    fc
      .tuple(fc.nat({ max: good.length }), fc.uint8Array({ minLength: 1, maxLength: 64 }))
      .map(([at, bytes]) => Buffer.concat([good.subarray(0, at), bytes, good.subarray(at)])),
  );

/** The files of the test tile packages (a raster .tpkx and a vector .vtpk), by path. */
const tilePackages = ['red.tpkx', 'roads.vtpk'].map((name) =>
  Object.fromEntries(
    Object.entries(
      unzipSync(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'tiles-pipeline', name))),
    ).filter(([path]) => !path.endsWith('/')),
  ),
);
/** A tile package with one of its files damaged: its metadata, a bundle or a resource. */
const damagedPackage = fc
  .constantFrom(...tilePackages)
  .chain((files) =>
    fc
      .constantFrom(...Object.keys(files))
      .chain((path) => mutated(Buffer.from(files[path])).map((bytes) => ({ ...files, [path]: bytes }))),
  );

/** The files of the test file geodatabase (towns.gdb), by path. */
const geodatabase = Object.fromEntries(
  Object.entries(unzipSync(fixture('file-geodatabase/towns.gdb.zip'))).filter(
    ([path]) => !path.endsWith('/'),
  ),
);
/** The geodatabase with one of its files (a table, its index, the catalog) damaged. */
const damagedGeodatabase = fc
  .constantFrom(...Object.keys(geodatabase).filter((path) => geodatabase[path].length > 0))
  .chain((path) =>
    fc
      .oneof(mutated(Buffer.from(geodatabase[path])), overwritten(Buffer.from(geodatabase[path]), 64, 4))
      .map((bytes) => ({ ...geodatabase, [path]: bytes })),
  );

/** Every path (keys and indexes) into a JSON value. */
function jsonPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) out.push(...jsonPaths(value[i], [...at, i]));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...jsonPaths(v, [...at, k]));
  return out;
}

/** A JSON document with one value, anywhere in it, replaced by another of any type. */
const jsonWithOneValueReplaced = (good: unknown) => {
  const paths = jsonPaths(good).filter((p) => p.length > 0);
  return fc.tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 })).map(([path, value]) => {
    const copy = structuredClone(good) as Record<string | number, unknown>;
    let parent: Record<string | number, unknown> = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path[path.length - 1]] = value;
    return Buffer.from(JSON.stringify(copy));
  });
};
const featureCollection = fixture('feature-collection/stops-and-zones.json');

/** Bytes overwritten within a file's first `span` bytes, where its headers and catalog lie. */
const mutatedHead = (good: Buffer, span: number) => overwritten(good, span, 6);

const entryName = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '../x.shp',
    'a/../../x.dbf',
    '/abs.shp',
    'C:\\win.shp',
    '..\\up.prj',
    'ok/./x.shp',
    'é/ü.cpg',
  ),
);

/** SOAP messages: arbitrary text, entity declarations, deep nesting and huge text. */
const soapMessage = fc.oneof(
  { arbitrary: fc.string({ maxLength: 300 }), weight: 8 },
  fc.constantFrom(
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>',
    '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetServerInfo/></soap:Body></soap:Envelope>',
  ),
  // Deep nesting and huge text are costly to build: a few sizes around the limits, drawn rarely.
  {
    arbitrary: fc.constantFrom(63, 65, 100_000).map((n) => `<a>${'<b>'.repeat(n)}${'</b>'.repeat(n)}</a>`),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(1, 9).map((mb) => `<a>${'x'.repeat(mb * 1024 * 1024)}</a>`), weight: 1 },
  fc
    .string({ maxLength: 60 })
    .map(
      (inner) =>
        `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`,
    ),
);

async function* once(bytes: Uint8Array) {
  yield bytes;
}

describe('file and message corpora under abuse', () => {
  it('any SOAP message is read as an envelope or refused with a SOAP fault', () => {
    suite.check(
      soapMessage,
      (xml) => {
        try {
          readEnvelope(xml);
        } catch (e) {
          if (!(e instanceof SoapFault)) throw e;
          expect(e.body.message.length).toBeGreaterThan(0);
        }
      },
      40,
    );
  });

  it('entity declarations are refused before parsing, whatever surrounds them', () => {
    suite.check(fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 })), ([a, b]) => {
      expect(() => readEnvelope(`${a}<!ENTITY e "${'x'.repeat(10)}">${b}`)).toThrow(
        /entity declarations are not allowed|larger than/,
      );
    });
  });

  it('damaged zips are read or refused with a clear 400, never anything else', async () => {
    await suite.checkAsync(mutated(wards), (zip) =>
      succeedsOrRefusesAsync(() => unzipWithBudget(zip, budget)),
    );
  });

  it('any entry name is taken only when it stays inside the archive', async () => {
    await suite.checkAsync(entryName, async (name) => {
      const zip = writeZip([{ name, data: Buffer.from('x'), method: 0 }]);
      const unsafe =
        /(^|[\\/])\.\.([\\/]|$)/.test(name) || /^([\\/]|[A-Za-z]:)/.test(name) || name.includes('\0');
      try {
        const entries = await unzipWithBudget(zip, budget);
        expect(unsafe).toBe(false);
        expect(entries.size).toBeLessThanOrEqual(1);
      } catch (e) {
        succeedsOrRefuses(() => {
          throw e;
        });
      }
    });
  });

  it('damaged shapefile zips are parsed or refused with a clear 400', async () => {
    await suite.checkAsync(
      mutated(wards),
      (zip) => succeedsOrRefusesAsync(() => readShapefileZip(zip, budget)),
      40,
    );
  });

  it('arbitrary and damaged CSV bytes are sampled or refused with a clear 400', () => {
    suite.check(
      fc.oneof(
        fc.uint8Array({ maxLength: 400 }),
        fc.string({ maxLength: 400 }).map((s) => Buffer.from(s)),
        mutated(fixture('chicago-libraries.csv')),
      ),
      (bytes) => succeedsOrRefuses(() => sampleFromBytes(bytes, true)),
    );
  });

  it('arbitrary and damaged GeoJSON is described or refused with a clear 400', async () => {
    await suite.checkAsync(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        mutated(parks),
        jsonWithOneValueReplaced(JSON.parse(parks.toString('utf8'))),
        fc.json().map((s) => Buffer.from(s)),
      ),
      (bytes) =>
        succeedsOrRefusesAsync(async () => {
          await describeGeoJson(geoJsonItemsOf(bytes), 'x', 10);
        }),
    );
  });
});

describe('databases, tile packages and service definitions under abuse', () => {
  it('damaged GeoPackage and SQLite files are analyzed or refused with a clear 400', async () => {
    await suite.checkAsync(
      fc.oneof(mutated(gpkg), mutatedHead(gpkg, 8192), mutated(wkbSqlite), mutatedHead(wkbSqlite, 4096)),
      // Analyze reads every row of every table (counts, text widths, the extent).
      (bytes) => succeedsOrRefusesAsync(() => analyzeSqlite(bytes, 'towns', 1000)),
      40,
    );
  });

  it('tile packages with a damaged file are read, every tile, or refused with a clear 400', async () => {
    await suite.checkAsync(
      damagedPackage,
      (files: Record<string, Uint8Array>) =>
        succeedsOrRefusesAsync(async () => {
          const layout = describeTilePackage(Object.keys(files));
          const reader = {
            read: async (path: string) => {
              const bytes = files[path];
              if (!bytes) throw new Error(`no entry ${path}`);
              return bytes;
            },
          };
          await readPackageDefinition(layout, reader);
          for await (const tile of packageTiles(layout, reader)) expect(tile.level).toBeGreaterThanOrEqual(0);
        }),
      40,
    );
  });

  it('file geodatabases with a damaged file are converted and read, or refused with a clear 400', async () => {
    await suite.checkAsync(
      damagedGeodatabase,
      (files: Record<string, Uint8Array>) =>
        succeedsOrRefusesAsync(async () => {
          const { gpkg } = await convertGeodatabase(files);
          await analyzeSqlite(gpkg, 'towns', 1000);
        }),
      10,
    );
  });

  it('feature collections with any value replaced, or damaged bytes, are analyzed or refused with a 400', () => {
    suite.check(
      fc.oneof(
        jsonWithOneValueReplaced(JSON.parse(featureCollection.toString('utf8'))),
        mutated(featureCollection),
      ),
      (bytes) => succeedsOrRefuses(() => analyzeFeatureCollection(bytes, 'stops', 1000)),
      100,
    );
  });

  it('damaged service definitions are listed and unpacked, or refused with a clear 400', async () => {
    await suite.checkAsync(
      fc.oneof(
        mutated(sd),
        mutatedHead(sd, 32),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      ),
      async (bytes) => {
        await succeedsOrRefusesAsync(() => sevenZipNames(bytesSource(bytes)));
        await succeedsOrRefusesAsync(() => sevenZipEntries(bytes, budget));
      },
      20,
    );
  });
});

function geoJsonItemsOf(bytes: Uint8Array) {
  return geoJsonFeatures(once(bytes));
}
