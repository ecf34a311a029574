import { badRequest } from '../errors.js';
import type { Bounds } from '../geometry/types.js';
import { parseXmlTree, XmlReadError } from '../xml/parse.js';
import { childElements, textOf, type XmlNode } from '../xml/tree.js';
import { type CacheDefinition, type CacheTileFormat, parseStorageFormat } from './cache-definition.js';

/**
 * Reads conf.xml, conf.cdi and tile-package root.json back into a CacheDefinition. The XML files come
 * from uploaded packages: they are read by the strict tree reader (linear in their size, entities
 * refused) under a size cap far above any real one.
 */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

function readXml(text: string, file: string): Record<string, XmlNode[]> {
  if (text.length > MAX_CONFIG_BYTES) {
    throw badRequest(`${file} is larger than ${MAX_CONFIG_BYTES} bytes.`);
  }
  try {
    return parseXmlTree(text);
  } catch (e) {
    if (!(e instanceof XmlReadError)) throw e;
    const where = e.position ? ` (line ${e.position.line}, column ${e.position.column})` : '';
    throw badRequest(`${file} is not well-formed XML: ${e.message}${where}`);
  }
}

/** The first child element called `name`, if any. */
const child = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node === undefined ? undefined : childElements(node, name)[0];

/** The trimmed text of the first child called `name`; undefined when there is none. */
const value = (node: XmlNode | undefined, name: string): string | undefined => {
  const c = child(node, name);
  return c === undefined ? undefined : textOf(c).trim();
};

type JsonObject = Record<string, unknown>;

const node = (v: unknown): JsonObject => (v && typeof v === 'object' ? (v as JsonObject) : {});

function num(v: unknown, what: string): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n))
    throw badRequest(`conf.xml: ${what} is missing or not a number.`);
  return n;
}

const optNum = (v: unknown): number | undefined =>
  v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);

export function parseConfXml(text: string): CacheDefinition {
  const root = readXml(text, 'conf.xml').CacheInfo?.[0];
  const tci = child(root, 'TileCacheInfo');
  if (!tci) throw badRequest('conf.xml has no CacheInfo/TileCacheInfo.');
  const sr = child(tci, 'SpatialReference');
  const origin = child(tci, 'TileOrigin');
  const tii = child(root, 'TileImageInfo');
  const csi = child(root, 'CacheStorageInfo');
  const lodNodes = childElements(child(tci, 'LODInfos') ?? '', 'LODInfo');
  const wkid = optNum(value(sr, 'WKID')) ?? 0;
  const storageFormat = value(csi, 'StorageFormat');
  const def: CacheDefinition = {
    wkid,
    originX: num(value(origin, 'X'), 'TileOrigin/X'),
    originY: num(value(origin, 'Y'), 'TileOrigin/Y'),
    tileRows: num(value(tci, 'TileRows'), 'TileRows'),
    tileCols: num(value(tci, 'TileCols'), 'TileCols'),
    dpi: optNum(value(tci, 'PreciseDPI')) ?? num(value(tci, 'DPI'), 'DPI'),
    lods: lodNodes.map((l) => ({
      level: num(value(l, 'LevelID'), 'LevelID'),
      scale: num(value(l, 'Scale'), 'Scale'),
      resolution: num(value(l, 'Resolution'), 'Resolution'),
    })),
    format: (value(tii, 'CacheTileFormat') || 'PNG') as CacheTileFormat,
    compressionQuality: optNum(value(tii, 'CompressionQuality')) ?? 0,
    antialiasing: (value(tii, 'Antialiasing') ?? 'false').toLowerCase() === 'true',
    storage: storageFormat ? parseStorageFormat(storageFormat) : 'exploded',
    packetSize: optNum(value(csi, 'PacketSize')) ?? 128,
  };
  const latest = optNum(value(sr, 'LatestWKID'));
  if (latest) def.latestWkid = latest;
  const wkt = value(sr, 'WKT');
  if (wkt && !wkid) def.wkt = wkt;
  return def;
}

/** The envelope of a conf.cdi file. */
export function parseConfCdi(text: string): Bounds {
  const env = readXml(text, 'conf.cdi').EnvelopeN?.[0];
  return [
    num(value(env, 'XMin'), 'XMin'),
    num(value(env, 'YMin'), 'YMin'),
    num(value(env, 'XMax'), 'XMax'),
    num(value(env, 'YMax'), 'YMax'),
  ];
}

interface RootJsonTileInfo {
  rows?: number;
  cols?: number;
  dpi?: number;
  origin?: { x: number; y: number };
  spatialReference?: { wkid?: number; latestWkid?: number; wkt?: string };
  lods?: { level: number; scale: number; resolution: number }[];
  format?: string;
  compressionQuality?: number;
}

/** A .tpkx root.json (or a vtpk p12/root.json) as a CacheDefinition. */
export function parseTilePackageRoot(json: unknown): CacheDefinition {
  const root = node(json);
  const tileInfo = node(root.tileInfo) as RootJsonTileInfo;
  if (!tileInfo.origin || !Array.isArray(tileInfo.lods))
    throw badRequest('root.json has no tileInfo with lods.');
  const imageInfo = node(root.tileImageInfo);
  const storageInfo = node(root.storageInfo ?? node(node(root.resourceInfo).cacheInfo).storageInfo);
  const sr = tileInfo.spatialReference ?? node(root.spatialReference);
  const full = node(root.fullExtent);
  const def: CacheDefinition = {
    wkid: Number(sr.wkid ?? 0),
    originX: Number(tileInfo.origin.x),
    originY: Number(tileInfo.origin.y),
    tileRows: Number(tileInfo.rows ?? 256),
    tileCols: Number(tileInfo.cols ?? 256),
    dpi: Number(tileInfo.dpi ?? 96),
    lods: tileInfo.lods.map((l) => ({
      level: Number(l.level),
      scale: Number(l.scale),
      resolution: Number(l.resolution),
    })),
    format: String(imageInfo.format ?? tileInfo.format ?? 'PNG') as CacheTileFormat,
    compressionQuality: Number(imageInfo.compressionQuality ?? tileInfo.compressionQuality ?? 0),
    antialiasing: false,
    storage: storageInfo.storageFormat ? parseStorageFormat(String(storageInfo.storageFormat)) : 'compactV2',
    packetSize: Number(storageInfo.packetSize ?? 128),
  };
  if (sr.latestWkid) def.latestWkid = Number(sr.latestWkid);
  if (sr.wkt && !sr.wkid) def.wkt = String(sr.wkt);
  if (['xmin', 'ymin', 'xmax', 'ymax'].every((k) => Number.isFinite(Number(full[k])) && full[k] !== null)) {
    def.extent = [Number(full.xmin), Number(full.ymin), Number(full.xmax), Number(full.ymax)];
  }
  return def;
}
