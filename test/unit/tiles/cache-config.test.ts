import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { confCdi, confXml } from '../../../lib/tiles/cache-config.js';
import { parseConfCdi, parseConfXml, parseTilePackageRoot } from '../../../lib/tiles/cache-config-parser.js';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/tiles/${name}`, import.meta.url), 'utf8');
const extent: [number, number, number, number] = [-9790549.2, 5107204.8, -9740455.4, 5163975.8];
const def = webMercatorCache({ minLevel: 3, maxLevel: 5, extent });

/** Child element names of an element, in document order. */
function childOrder(xml: string, path: string[]): string[] {
  const doc = new XMLParser({ preserveOrder: true, ignoreAttributes: true }).parse(xml) as Record<
    string,
    unknown
  >[];
  let nodes = doc;
  for (const name of path) {
    const next = nodes.find((n) => name in n);
    nodes = (next?.[name] ?? []) as Record<string, unknown>[];
  }
  return nodes.map((n) => Object.keys(n)[0]).filter((k) => k !== '#text');
}

describe('conf.xml generation', () => {
  it('puts TileCacheInfo, TileImageInfo and CacheStorageInfo under CacheInfo in that order', () => {
    expect(childOrder(confXml(def), ['CacheInfo'])).toEqual([
      'TileCacheInfo',
      'TileImageInfo',
      'CacheStorageInfo',
    ]);
  });

  it('orders TileCacheInfo children as the schema does', () => {
    expect(childOrder(confXml(def), ['CacheInfo', 'TileCacheInfo'])).toEqual([
      'SpatialReference',
      'TileOrigin',
      'TileCols',
      'TileRows',
      'DPI',
      'LODInfos',
      'PreciseDPI',
    ]);
  });

  it('writes one LODInfo per cached level with LevelID, Scale and Resolution', () => {
    const xml = confXml(def);
    expect(xml).toContain(
      '<LODInfo xsi:type="typens:LODInfo"><LevelID>3</LevelID><Scale>73957190.948944</Scale><Resolution>19567.87924099992</Resolution></LODInfo>',
    );
    expect(xml.match(/<LODInfo /g)).toHaveLength(3);
  });

  it('names the storage format with the esri enum value readers expect', () => {
    expect(confXml(def)).toContain('<StorageFormat>esriMapCacheStorageModeCompactV2</StorageFormat>');
    expect(confXml({ ...def, storage: 'exploded' })).toContain(
      '<StorageFormat>esriMapCacheStorageModeExploded</StorageFormat>',
    );
  });

  it('round-trips through the conf.xml parser', () => {
    const { extent: _dropped, ...withoutExtent } = def;
    expect(parseConfXml(confXml(def))).toEqual({ ...withoutExtent, wkid: 102100 });
  });
});

describe('conf.xml parsing', () => {
  it('reads an Esri-style conf.xml with its LODs, format and storage', () => {
    const parsed = parseConfXml(fixture('esri-style-conf.xml'));
    expect(parsed.wkid).toBe(3857);
    expect(parsed.originX).toBe(-20037508.342787);
    expect(parsed.lods).toEqual([
      { level: 0, scale: 591657527.591555, resolution: 156543.03392800014 },
      { level: 1, scale: 295828763.795777, resolution: 78271.51696399994 },
    ]);
    expect(parsed.format).toBe('JPEG');
    expect(parsed.compressionQuality).toBe(75);
    expect(parsed.storage).toBe('compactV2');
    expect(parsed.packetSize).toBe(128);
  });

  it('rejects XML without TileCacheInfo with a 400 error', () => {
    expect(() => parseConfXml('<CacheInfo></CacheInfo>')).toThrowError(
      expect.objectContaining({ code: 400 }),
    );
  });
});

describe('conf.cdi', () => {
  it('writes XMin, YMin, XMax, YMax then the spatial reference', () => {
    expect(childOrder(confCdi(extent, def), ['EnvelopeN'])).toEqual([
      'XMin',
      'YMin',
      'XMax',
      'YMax',
      'SpatialReference',
    ]);
  });

  it('round-trips the extent', () => {
    expect(parseConfCdi(confCdi(extent, def))).toEqual(extent);
  });
});

describe('tile package root.json', () => {
  it('reads tileInfo, image format, storage and full extent', () => {
    const parsed = parseTilePackageRoot(JSON.parse(fixture('tpkx-root.json')));
    expect(parsed.lods.map((l) => l.level)).toEqual([0, 1, 2]);
    expect(parsed.wkid).toBe(102100);
    expect(parsed.latestWkid).toBe(3857);
    expect(parsed.format).toBe('PNG');
    expect(parsed.storage).toBe('compactV2');
    expect(parsed.extent).toEqual(extent);
  });
});
