import { XMLParser } from 'fast-xml-parser';
import { badRequest } from '../errors.js';
import type { Bounds } from '../geometry/types.js';
import { type CacheDefinition, type CacheTileFormat, parseStorageFormat } from './cache-definition.js';

/** Reads conf.xml, conf.cdi and tile-package root.json back into a CacheDefinition. */
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'LODInfo',
});

type XmlNode = Record<string, unknown>;

const node = (v: unknown): XmlNode => (v && typeof v === 'object' ? (v as XmlNode) : {});

function num(v: unknown, what: string): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n))
    throw badRequest(`conf.xml: ${what} is missing or not a number.`);
  return n;
}

const optNum = (v: unknown): number | undefined =>
  v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);

export function parseConfXml(text: string): CacheDefinition {
  const root = node(parser.parse(text).CacheInfo);
  const tci = node(root.TileCacheInfo);
  if (!root.TileCacheInfo) throw badRequest('conf.xml has no CacheInfo/TileCacheInfo.');
  const sr = node(tci.SpatialReference);
  const origin = node(tci.TileOrigin);
  const tii = node(root.TileImageInfo);
  const csi = node(root.CacheStorageInfo);
  const lodNodes = (node(tci.LODInfos).LODInfo as unknown[] | undefined) ?? [];
  const wkid = optNum(sr.WKID) ?? 0;
  const def: CacheDefinition = {
    wkid,
    originX: num(origin.X, 'TileOrigin/X'),
    originY: num(origin.Y, 'TileOrigin/Y'),
    tileRows: num(tci.TileRows, 'TileRows'),
    tileCols: num(tci.TileCols, 'TileCols'),
    dpi: optNum(tci.PreciseDPI) ?? num(tci.DPI, 'DPI'),
    lods: lodNodes.map((n) => {
      const l = node(n);
      return {
        level: num(l.LevelID, 'LevelID'),
        scale: num(l.Scale, 'Scale'),
        resolution: num(l.Resolution, 'Resolution'),
      };
    }),
    format: (String(tii.CacheTileFormat ?? 'PNG') || 'PNG') as CacheTileFormat,
    compressionQuality: optNum(tii.CompressionQuality) ?? 0,
    antialiasing: String(tii.Antialiasing ?? 'false').toLowerCase() === 'true',
    storage: csi.StorageFormat ? parseStorageFormat(String(csi.StorageFormat)) : 'exploded',
    packetSize: optNum(csi.PacketSize) ?? 128,
  };
  const latest = optNum(sr.LatestWKID);
  if (latest) def.latestWkid = latest;
  if (typeof sr.WKT === 'string' && sr.WKT && !wkid) def.wkt = sr.WKT;
  return def;
}

/** The envelope of a conf.cdi file. */
export function parseConfCdi(text: string): Bounds {
  const env = node(parser.parse(text).EnvelopeN);
  return [num(env.XMin, 'XMin'), num(env.YMin, 'YMin'), num(env.XMax, 'XMax'), num(env.YMax, 'YMax')];
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
