import type { Bounds } from '../geometry/types.js';
import { type CacheDefinition, storageFormatName } from './cache-definition.js';

/**
 * conf.xml and conf.cdi of a cache directory. conf.xml is the SOAP TileCacheInfo, TileImageInfo and
 * CacheStorageInfo types serialized with Esri's element names and `esri*` enum values, so ArcGIS tools
 * and third-party readers (MapProxy, GeoWebCache) can open our caches as they are.
 */
const NS = 'http://www.esri.com/schemas/ArcGIS/10.3';
const XMLNS = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:typens="${NS}"`;

const WEB_MERCATOR_WKT =
  'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0],AUTHORITY["EPSG",3857]]';
const WGS84_WKT =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433],AUTHORITY["EPSG",4326]]';

/** The coordinate-grid values ArcGIS writes for these systems (storage precision, not tiling). */
const PROJECTED_GRID = { x: -20037700, y: -30241100, xyScale: 10000, xyTol: 0.001 };
const GEOGRAPHIC_GRID = { x: -400, y: -400, xyScale: 1000000000, xyTol: 8.983152841195215e-9 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const el = (name: string, value: string | number | boolean): string =>
  `<${name}>${typeof value === 'string' ? esc(value) : String(value)}</${name}>`;

const isGeographic = (def: Pick<CacheDefinition, 'wkid'>): boolean => def.wkid === 4326 || def.wkid === 4269;

function wktOf(def: Pick<CacheDefinition, 'wkid' | 'latestWkid' | 'wkt'>): string | undefined {
  if (def.wkt) return def.wkt;
  if (def.wkid === 102100 || def.wkid === 3857) return WEB_MERCATOR_WKT;
  if (def.wkid === 4326) return WGS84_WKT;
  return undefined;
}

/** `<SpatialReference xsi:type=…>` in the ProjectedCoordinateSystem / GeographicCoordinateSystem order. */
export function spatialReferenceXml(
  def: Pick<CacheDefinition, 'wkid' | 'latestWkid' | 'wkt'>,
  indent = '',
): string {
  const geographic = isGeographic(def);
  const grid = geographic ? GEOGRAPHIC_GRID : PROJECTED_GRID;
  const type = geographic ? 'GeographicCoordinateSystem' : 'ProjectedCoordinateSystem';
  const wkt = wktOf(def);
  const parts = [
    wkt !== undefined ? el('WKT', wkt) : '',
    el('XOrigin', grid.x),
    el('YOrigin', grid.y),
    el('XYScale', grid.xyScale),
    el('ZOrigin', -100000),
    el('ZScale', 10000),
    el('MOrigin', -100000),
    el('MScale', 10000),
    el('XYTolerance', grid.xyTol),
    el('ZTolerance', 0.001),
    el('MTolerance', 0.001),
    el('HighPrecision', true),
    def.wkid ? el('WKID', def.wkid) : '',
    def.latestWkid ? el('LatestWKID', def.latestWkid) : '',
  ].filter((p) => p !== '');
  const inner = parts.map((p) => `${indent}  ${p}`).join('\n');
  return `${indent}<SpatialReference xsi:type="typens:${type}">\n${inner}\n${indent}</SpatialReference>`;
}

/** conf.xml text for a cache. */
export function confXml(def: CacheDefinition): string {
  const lods = def.lods
    .map(
      (l) =>
        `      <LODInfo xsi:type="typens:LODInfo">${el('LevelID', l.level)}${el('Scale', l.scale)}${el('Resolution', l.resolution)}</LODInfo>`,
    )
    .join('\n');
  return [
    '<?xml version="1.0" encoding="utf-8" ?>',
    `<CacheInfo xsi:type="typens:CacheInfo" ${XMLNS}>`,
    '  <TileCacheInfo xsi:type="typens:TileCacheInfo">',
    spatialReferenceXml(def, '    '),
    '    <TileOrigin xsi:type="typens:PointN">',
    `      ${el('X', def.originX)}`,
    `      ${el('Y', def.originY)}`,
    '    </TileOrigin>',
    `    ${el('TileCols', def.tileCols)}`,
    `    ${el('TileRows', def.tileRows)}`,
    `    ${el('DPI', Math.round(def.dpi))}`,
    '    <LODInfos xsi:type="typens:ArrayOfLODInfo">',
    lods,
    '    </LODInfos>',
    `    ${el('PreciseDPI', def.dpi)}`,
    '  </TileCacheInfo>',
    '  <TileImageInfo xsi:type="typens:TileImageInfo">',
    `    ${el('CacheTileFormat', def.format)}`,
    `    ${el('CompressionQuality', def.compressionQuality)}`,
    `    ${el('Antialiasing', def.antialiasing)}`,
    '  </TileImageInfo>',
    '  <CacheStorageInfo xsi:type="typens:CacheStorageInfo">',
    `    ${el('StorageFormat', storageFormatName(def.storage))}`,
    `    ${el('PacketSize', def.packetSize)}`,
    '  </CacheStorageInfo>',
    '</CacheInfo>',
    '',
  ].join('\n');
}

/** conf.cdi text: the data extent as an EnvelopeN with its spatial reference. */
export function confCdi(extent: Bounds, def: Pick<CacheDefinition, 'wkid' | 'latestWkid' | 'wkt'>): string {
  const [xmin, ymin, xmax, ymax] = extent;
  return [
    '<?xml version="1.0" encoding="utf-8" ?>',
    `<EnvelopeN xsi:type="typens:EnvelopeN" ${XMLNS}>`,
    `  ${el('XMin', xmin)}`,
    `  ${el('YMin', ymin)}`,
    `  ${el('XMax', xmax)}`,
    `  ${el('YMax', ymax)}`,
    spatialReferenceXml(def, '  '),
    '</EnvelopeN>',
    '',
  ].join('\n');
}
