/**
 * OGC API – Features (Part 1 core, Part 2 CRS) request parameters turned into the layer query the
 * FeatureServer already answers: bbox and bbox-crs become an envelope filter, the properties filter a
 * where clause, limit and offset the paging, crs the output spatial reference. Pure: no I/O.
 */
import { badRequest } from '../errors.js';
import type { GeoJSONGeometry, Position } from '../geometry/geojson-types.js';

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const EPSG4326 = 'http://www.opengis.net/def/crs/EPSG/0/4326';
export const EPSG3857 = 'http://www.opengis.net/def/crs/EPSG/0/3857';

/** A supported CRS: its URI, the wkid the query engine projects to, and whether axes are lat/lon. */
export interface OgcCrs {
  uri: string;
  wkid: 4326 | 3857;
  latLon: boolean;
}

const CRSS: readonly OgcCrs[] = [
  { uri: CRS84, wkid: 4326, latLon: false },
  { uri: EPSG4326, wkid: 4326, latLon: true },
  { uri: EPSG3857, wkid: 3857, latLon: false },
];

export const SUPPORTED_CRS: readonly string[] = CRSS.map((c) => c.uri);

/** The parameters the items operation knows besides the properties filter. */
const ITEMS_PARAMETERS = new Set(['f', 'token', 'limit', 'offset', 'bbox', 'bbox-crs', 'crs', 'datetime']);

/** A CRS URI (or its `[EPSG:4326]`-style safe CURIE) as one of ours; undefined when absent. */
export function parseCrs(name: string, value: string | undefined): OgcCrs | undefined {
  if (value === undefined || value === '') return undefined;
  const curie = /^\[?(EPSG|OGC):([0-9A-Za-z.]+)\]?$/i.exec(value.trim());
  const uri = curie
    ? curie[1]!.toUpperCase() === 'OGC'
      ? `http://www.opengis.net/def/crs/OGC/1.3/${curie[2]!.toUpperCase()}`
      : `http://www.opengis.net/def/crs/EPSG/0/${curie[2]}`
    : value.trim().replace(/^https:/, 'http:');
  const crs = CRSS.find((c) => c.uri === uri);
  if (!crs)
    throw badRequest(`Unsupported ${name}.`, [`'${value}' is not one of ${SUPPORTED_CRS.join(', ')}.`]);
  return crs;
}

/** `bbox`: four numbers (or six with heights, whose heights are dropped), lower corner first. */
export function parseBbox(value: string | undefined): [number, number, number, number] | undefined {
  if (value === undefined || value === '') return undefined;
  const parts = value.split(',').map((s) => s.trim());
  const nums = parts.map(Number);
  if (
    (parts.length !== 4 && parts.length !== 6) ||
    parts.some((p) => p === '') ||
    nums.some((n) => !Number.isFinite(n))
  )
    throw badRequest('Invalid bbox.', [`'${value}' must be 4 or 6 comma-separated numbers.`]);
  const b = (parts.length === 6 ? [nums[0], nums[1], nums[3], nums[4]] : nums) as [
    number,
    number,
    number,
    number,
  ];
  if (b[0] > b[2] || b[1] > b[3])
    throw badRequest('Invalid bbox.', [`In '${value}' the lower corner is not below the upper corner.`]);
  return b;
}

/** An integer parameter within [min, max]; `clamp` caps values above max instead of refusing them. */
export function parseCount(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
  clamp = false,
): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value.trim()))
    throw badRequest(`Invalid ${name}.`, [`'${value}' is not a whole number.`]);
  const n = Number(value);
  if (n < min) throw badRequest(`Invalid ${name}.`, [`${name} must be at least ${min}.`]);
  if (n > max) {
    if (clamp) return max;
    throw badRequest(`Invalid ${name}.`, [`${name} must be at most ${max}.`]);
  }
  return n;
}

export interface FilterField {
  name: string;
  type: string;
}

const NUMERIC = new Set([
  'esriFieldTypeOID',
  'esriFieldTypeInteger',
  'esriFieldTypeSmallInteger',
  'esriFieldTypeBigInteger',
  'esriFieldTypeDouble',
  'esriFieldTypeSingle',
]);
const TEXT = new Set(['esriFieldTypeString', 'esriFieldTypeGUID', 'esriFieldTypeGlobalID']);

/** Fields that the properties filter (`name=value`) accepts: text and numbers. */
export function filterableFields(fields: readonly FilterField[]): FilterField[] {
  return fields.filter((f) => NUMERIC.has(f.type) || TEXT.has(f.type));
}

/**
 * The where clause of the items query: one equality per property filter (`NAME=value`, names matched
 * case-insensitively), AND-ed. Any other unknown parameter is a 400, as Part 1 requires.
 */
export function propertiesWhere(params: Record<string, string>, fields: readonly FilterField[]): string {
  const byName = new Map(filterableFields(fields).map((f) => [f.name.toLowerCase(), f]));
  const terms: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const k = key.toLowerCase();
    if (ITEMS_PARAMETERS.has(k)) continue;
    const field = byName.get(k);
    if (!field)
      throw badRequest(`Unknown parameter '${key}'.`, [
        `The items of this collection accept ${[...ITEMS_PARAMETERS].join(', ')} and the properties ${[...byName.values()].map((f) => f.name).join(', ')}.`,
      ]);
    if (NUMERIC.has(field.type)) {
      if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value.trim()))
        throw badRequest(`Invalid value for '${field.name}'.`, [`'${value}' is not a number.`]);
      terms.push(`${field.name} = ${Number(value)}`);
    } else {
      terms.push(`${field.name} = '${value.replaceAll("'", "''")}'`);
    }
  }
  return terms.length ? terms.join(' AND ') : '1=1';
}

/** A full date, or a date-time with its offset: RFC 3339 (a time without offset would be local). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/i;

/**
 * `datetime` (Part 1): an RFC 3339 instant, or `start/end` with `..` (or nothing) for an open end, as
 * the FeatureServer `time` value (epoch ms, `null` for open ends) it is answered with. Collections
 * without a temporal property (no timeInfo) refuse it rather than ignore it.
 */
export function datetimeAsTime(value: string | undefined, hasTime: boolean): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!hasTime)
    throw badRequest('Invalid datetime.', ['This collection has no temporal property to filter on.']);
  const parts = value.split('/');
  if (parts.length > 2)
    throw badRequest('Invalid datetime.', [`'${value}' is not an instant or an interval.`]);
  const instant = (text: string): string => {
    if (text === '..' || text === '') {
      if (parts.length === 1) throw badRequest('Invalid datetime.', ['An instant cannot be open.']);
      return 'null';
    }
    const ms = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
    if (!Number.isFinite(ms))
      throw badRequest('Invalid datetime.', [`'${text}' is not an RFC 3339 date-time.`]);
    return String(ms);
  };
  const [start, end] = parts.map(instant);
  if (parts.length === 1) return start;
  if (start !== 'null' && end !== 'null' && Number(end) < Number(start))
    throw badRequest('Invalid datetime.', ['The interval ends before it starts.']);
  return `${start},${end}`;
}

/** Axes swapped, for EPSG:4326 whose axis order is latitude first. */
export function swapAxes(g: GeoJSONGeometry): GeoJSONGeometry {
  const p = (c: Position): Position => [c[1]!, c[0]!, ...c.slice(2)];
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: p(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: g.type, coordinates: g.coordinates.map(p) } as GeoJSONGeometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: g.coordinates.map((r) => r.map(p)) } as GeoJSONGeometry;
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((s) => s.map((r) => r.map(p))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: g.geometries.map(swapAxes) };
  }
}

/** A bbox given in `crs` as x/y order (lon/lat or easting/northing). */
export function bboxInXY(b: [number, number, number, number], crs: OgcCrs): [number, number, number, number] {
  return crs.latLon ? [b[1], b[0], b[3], b[2]] : b;
}
