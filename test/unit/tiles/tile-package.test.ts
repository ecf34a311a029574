import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { confXml } from '../../../lib/tiles/cache-config.js';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';
import { encodeBundle, tileIndexInBundle } from '../../../lib/tiles/compact-bundle.js';
import { BUNDLX_SIZE } from '../../../lib/tiles/compact-bundle-v1.js';
import {
  describeTilePackage,
  type PackageReader,
  packageTiles,
  readPackageDefinition,
} from '../../../lib/tiles/tile-package.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/tiles/${name}`, import.meta.url), 'utf8');

function memoryReader(files: Record<string, Uint8Array>): PackageReader {
  return {
    read: async (path) => {
      const f = files[path];
      if (!f) throw new Error(`missing ${path}`);
      return f;
    },
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A V1 pair holding one tile at (row 1, col 2) of its bundle. */
function v1Pair(tile: Uint8Array): { bundle: Uint8Array; bundlx: Uint8Array } {
  const recordAt = 60 + 16384 * 4;
  const bundle = new Uint8Array(recordAt + 4 + tile.length);
  new DataView(bundle.buffer).setUint32(recordAt, tile.length, true);
  bundle.set(tile, recordAt + 4);
  const bundlx = new Uint8Array(BUNDLX_SIZE);
  for (let slot = 0; slot < 16384; slot++) {
    const offset = slot === 128 * 2 + 1 ? recordAt : 60 + slot * 4;
    for (let b = 0; b < 5; b++) bundlx[16 + slot * 5 + b] = Math.floor(offset / 256 ** b) % 256;
  }
  return { bundle, bundlx };
}

describe('tile package layout', () => {
  it('recognises a .tpk by its v101 conf.xml and pairs bundles with bundlx', () => {
    const layout = describeTilePackage([
      'esriinfo/iteminfo.xml',
      'v101/Layers/conf.xml',
      'v101/Layers/conf.cdi',
      'v101/Layers/_alllayers/L01/R0000C0000.bundle',
      'v101/Layers/_alllayers/L01/R0000C0000.bundlx',
      'servicedescriptions/mapserver/mapserver.json',
    ]);
    expect(layout.kind).toBe('tpk');
    expect(layout.metadataPath).toBe('v101/Layers/conf.xml');
    expect(layout.confCdiPath).toBe('v101/Layers/conf.cdi');
    expect(layout.itemInfoPath).toBe('esriinfo/iteminfo.xml');
    expect(layout.bundles).toEqual([
      {
        level: 1,
        row0: 0,
        col0: 0,
        bundlePath: 'v101/Layers/_alllayers/L01/R0000C0000.bundle',
        bundlxPath: 'v101/Layers/_alllayers/L01/R0000C0000.bundlx',
      },
    ]);
  });

  it('recognises a .tpkx by its root.json and tile folder', () => {
    const layout = describeTilePackage([
      'root.json',
      'iteminfo.json',
      'thumbnail.png',
      'tile/L02/R0000C0000.bundle',
    ]);
    expect(layout.kind).toBe('tpkx');
    expect(layout.bundles.map((b) => [b.level, b.bundlePath, b.bundlxPath])).toEqual([
      [2, 'tile/L02/R0000C0000.bundle', undefined],
    ]);
  });

  it('recognises a .vtpk and lists its style and resources', () => {
    const layout = describeTilePackage([
      'esriinfo/item.pkinfo',
      'p12/root.json',
      'p12/metadata.json',
      'p12/resources/styles/root.json',
      'p12/resources/sprites/sprite.json',
      'p12/resources/fonts/Arial Regular/0-255.pbf',
      'p12/tile/L00/R0000C0000.bundle',
    ]);
    expect(layout.kind).toBe('vtpk');
    expect(layout.metadataPath).toBe('p12/root.json');
    expect(layout.styleRootPath).toBe('p12/resources/styles/root.json');
    expect(layout.resources).toEqual([
      'resources/styles/root.json',
      'resources/sprites/sprite.json',
      'resources/fonts/Arial Regular/0-255.pbf',
    ]);
    expect(layout.bundles).toHaveLength(1);
  });

  it('rejects an archive without conf.xml or root.json with a 400 error', () => {
    expect(() => describeTilePackage(['a.txt'])).toThrowError(expect.objectContaining({ code: 400 }));
  });
});

describe('tile package reading', () => {
  it('reads a tpkx definition from root.json', async () => {
    const layout = describeTilePackage(['root.json', 'tile/L00/R0000C0000.bundle']);
    const def = await readPackageDefinition(
      layout,
      memoryReader({ 'root.json': text(fixture('tpkx-root.json')) }),
    );
    expect(def.lods).toHaveLength(3);
    expect(def.storage).toBe('compactV2');
  });

  it('reads a tpk definition from conf.xml and its extent from conf.cdi', async () => {
    const layout = describeTilePackage(['v101/L/conf.xml', 'v101/L/conf.cdi']);
    const cdi = '<EnvelopeN><XMin>1</XMin><YMin>2</YMin><XMax>3</XMax><YMax>4</YMax></EnvelopeN>';
    const reader = memoryReader({
      'v101/L/conf.xml': text(confXml(webMercatorCache({ minLevel: 0, maxLevel: 2, storage: 'compactV1' }))),
      'v101/L/conf.cdi': text(cdi),
    });
    const def = await readPackageDefinition(layout, reader);
    expect(def.storage).toBe('compactV1');
    expect(def.extent).toEqual([1, 2, 3, 4]);
  });

  it('refuses metadata files past 4 MB, malformed conf.xml, entities and bad JSON with 400s', async () => {
    const refusal = async (names: string[], files: Record<string, Uint8Array>) => {
      try {
        await readPackageDefinition(describeTilePackage(names), memoryReader(files));
      } catch (e) {
        return e as { code: number; message: string };
      }
      throw new Error('expected a refusal');
    };
    const conf = confXml(webMercatorCache({ minLevel: 0, maxLevel: 2 }));
    // A real conf.xml padded with a comment to one byte past 4 MiB.
    const padded = conf.replace(
      '<CacheInfo',
      `<!--${'x'.repeat(4 * 1024 * 1024 + 1 - conf.length - 7)}--><CacheInfo`,
    );
    expect(text(padded).length).toBe(4 * 1024 * 1024 + 1);
    const big = await refusal(['v101/L/conf.xml'], { 'v101/L/conf.xml': text(padded) });
    expect([big.code, big.message]).toEqual([400, 'conf.xml is larger than 4194304 bytes.']);
    const bigJson = await refusal(['root.json'], {
      'root.json': text(`{"x":"${'y'.repeat(4 * 1024 * 1024)}"}`),
    });
    expect([bigJson.code, bigJson.message]).toEqual([400, 'root.json is larger than 4194304 bytes.']);
    const cut = await refusal(['v101/L/conf.xml'], {
      'v101/L/conf.xml': text(conf.slice(0, conf.length / 2)),
    });
    expect(cut.code).toBe(400);
    expect(cut.message).toMatch(/^conf\.xml is not well-formed XML: .+ \(line \d+, column \d+\)$/);
    const entity = conf
      .replace('<CacheInfo', '<!DOCTYPE CacheInfo [<!ENTITY e SYSTEM "file:///etc/passwd">]><CacheInfo')
      .replace('<TileRows>', '<TileRows>&e;');
    const refused = await refusal(['v101/L/conf.xml'], { 'v101/L/conf.xml': text(entity) });
    expect(refused.message).toMatch(/^conf\.xml is not well-formed XML: undefined entity/);
    const json = await refusal(['root.json'], { 'root.json': text('{"tileInfo":') });
    expect(json.code).toBe(400);
    expect(json.message).toMatch(/^root\.json is not valid JSON/);
  });

  it('yields V2 tiles with absolute rows and columns', async () => {
    const bundle = encodeBundle(new Map([[tileIndexInBundle(3, 4), Uint8Array.from([1, 2])]]));
    const layout = describeTilePackage(['root.json', 'tile/L09/R0080C0100.bundle']);
    const tiles = await collect(packageTiles(layout, memoryReader({ 'tile/L09/R0080C0100.bundle': bundle })));
    expect(tiles.map((t) => [t.level, t.row, t.col, [...t.bytes]])).toEqual([[9, 131, 260, [1, 2]]]);
  });

  it('yields V1 tiles through their bundlx', async () => {
    const { bundle, bundlx } = v1Pair(Uint8Array.from([7, 7, 7]));
    const base = 'v101/Layers/_alllayers/L03/R0000C0000';
    const layout = describeTilePackage(['v101/Layers/conf.xml', `${base}.bundle`, `${base}.bundlx`]);
    const reader = memoryReader({ [`${base}.bundle`]: bundle, [`${base}.bundlx`]: bundlx });
    const tiles = await collect(packageTiles(layout, reader));
    expect(tiles.map((t) => [t.level, t.row, t.col, [...t.bytes]])).toEqual([[3, 1, 2, [7, 7, 7]]]);
  });

  it('yields exploded tiles found in a package', async () => {
    const path = 'v101/Layers/_alllayers/L04/R00000003/C00000005.png';
    const layout = describeTilePackage(['v101/Layers/conf.xml', path]);
    const tiles = await collect(packageTiles(layout, memoryReader({ [path]: Uint8Array.from([9]) })));
    expect(tiles.map((t) => [t.level, t.row, t.col])).toEqual([[4, 3, 5]]);
  });
});
