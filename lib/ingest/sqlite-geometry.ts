/**
 * The geometry blobs of SQLite-based formats: GeoPackage binary (a "GP" header with the srs id and
 * an optional envelope, then WKB; OGC 12-128r18 §2.1.3) and SpatiaLite's own blob (a 39-byte
 * header with srid and MBR, a class type, the body, 0xFE; compressed lines keep the first and last
 * vertex whole and the others as float offsets from the previous one).
 */
import type { GeoJSONGeometry, Position } from '../geometry/geojson-types.js';
import {
  ByteReader,
  checkPartDimensions,
  type DecodedGeometry,
  type Dimensions,
  GeometryDecodeError,
  readBody,
  readPosition,
  readWkbGeometry,
} from './wkb-geometry.js';

const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

export function decodeGeoPackageGeometry(bytes: Uint8Array): DecodedGeometry {
  if (bytes.length < 8 || bytes[0] !== 0x47 || bytes[1] !== 0x50)
    throw new GeometryDecodeError('The blob is not GeoPackage geometry (no GP magic).');
  const flags = bytes[3];
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 0x07];
  if (envelope === undefined) throw new GeometryDecodeError('The GeoPackage envelope indicator is invalid.');
  if (flags & 0x20) throw new GeometryDecodeError('Extended GeoPackage geometry types are not readable.');
  const r = new ByteReader(bytes, 8 + envelope);
  const decoded = readWkbGeometry(r);
  // The empty flag wins over whatever the WKB says (GDAL writes POINT EMPTY as NaN, others omit it).
  return flags & 0x10 ? { ...decoded, geometry: null } : decoded;
}

/**
 * The x and y of a GeoPackage blob holding one two-dimensional point with finite coordinates, read in
 * place; undefined for any other blob (decodeGeoPackageGeometry reads those). Point layers of a million
 * rows call this once per row: it makes the one object the layer stores, where the general decoder
 * makes a reader, a view and three geometry objects on the way.
 */
export function geoPackagePointXY(bytes: Uint8Array): { x: number; y: number } | undefined {
  return geoPackagePointAt(bytes, 0, bytes.length, POINT) ? { x: POINT[0], y: POINT[1] } : undefined;
}

const POINT = new Float64Array(2);

/**
 * `geoPackagePointXY` of the blob of `length` bytes at `start` of `bytes`, into `xy`: whether the blob
 * holds such a point (`xy` is written only then). A load's encoder reads its points where they lie on the
 * page, making no object at all.
 */
export function geoPackagePointAt(
  bytes: Uint8Array,
  start: number,
  length: number,
  xy: Float64Array,
): boolean {
  if (length < 29 || bytes[start] !== 0x47 || bytes[start + 1] !== 0x50) return false;
  const flags = bytes[start + 3];
  // The empty and the extended flags take the general path.
  if (flags & 0x30) return false;
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 0x07];
  if (envelope === undefined) return false;
  const at = start + 8 + envelope;
  const order = bytes[at];
  if (length < 8 + envelope + 21 || order > 1) return false;
  const little = order === 1;
  // The WKB type (1, a point) read without a DataView: one a row was a million objects to collect.
  const type = little
    ? bytes[at + 1] | (bytes[at + 2] << 8) | (bytes[at + 3] << 16) | (bytes[at + 4] << 24)
    : (bytes[at + 1] << 24) | (bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4];
  if (type !== 1) return false;
  const x = float64At(bytes, at + 5, little);
  const y = float64At(bytes, at + 13, little);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  xy[0] = x;
  xy[1] = y;
  return true;
}

const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
/** Whether this machine stores a double's bytes least significant first (as F64_BYTES sees them). */
const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The double of the 8 bytes at `at`, in the byte order `little` says. */
function float64At(bytes: Uint8Array, at: number, little: boolean): number {
  if (little === HOST_LITTLE) for (let i = 0; i < 8; i++) F64_BYTES[i] = bytes[at + i];
  else for (let i = 0; i < 8; i++) F64_BYTES[i] = bytes[at + 7 - i];
  return F64[0];
}

/** SpatiaLite class types: 1–7 plus 1000 (z), 2000 (m), 3000 (zm); compressed lines add 1000000. */
function spatialiteType(code: number): { base: number; compressed: boolean } & Dimensions {
  const compressed = code >= 1000000;
  const rest = compressed ? code - 1000000 : code;
  const thousands = Math.floor(rest / 1000);
  const base = rest % 1000;
  if (thousands > 3 || base < 1 || base > 7)
    throw new GeometryDecodeError(`SpatiaLite geometry class ${code} is unknown.`);
  return {
    base,
    compressed,
    hasZ: thousands === 1 || thousands === 3,
    hasM: thousands === 2 || thousands === 3,
  };
}

export function decodeSpatialiteGeometry(bytes: Uint8Array): DecodedGeometry {
  if (bytes.length < 44 || bytes[0] !== 0x00 || bytes[38] !== 0x7c || bytes[bytes.length - 1] !== 0xfe)
    throw new GeometryDecodeError('The blob is not a SpatiaLite geometry (bad start, MBR end or end marks).');
  if (bytes[1] > 1) throw new GeometryDecodeError('The SpatiaLite byte order mark is invalid.');
  const r = new ByteReader(bytes.subarray(0, bytes.length - 1), 39, bytes[1] === 1);
  const type = spatialiteType(r.u32());
  const dims = { hasZ: type.hasZ, hasM: type.hasM };
  const geometry = entityBody(r, type.base, type.compressed, dims);
  return { geometry, ...dims };
}

function entityBody(
  r: ByteReader,
  base: number,
  compressed: boolean,
  dims: Dimensions,
): GeoJSONGeometry | null {
  if (compressed && base === 2) {
    const coordinates = compressedLine(r, dims);
    return coordinates.length === 0 ? null : { type: 'LineString', coordinates };
  }
  if (compressed && base === 3) {
    const n = r.count(4);
    const coordinates: Position[][] = [];
    for (let i = 0; i < n; i++) coordinates.push(compressedLine(r, dims));
    return coordinates.length === 0 ? null : { type: 'Polygon', coordinates };
  }
  return readBody(r, base, dims, () => {
    if (r.u8() !== 0x69) throw new GeometryDecodeError('A SpatiaLite collection entity lacks its 0x69 mark.');
    const part = spatialiteType(r.u32());
    checkPartDimensions(part, dims);
    return entityBody(r, part.base, part.compressed, dims);
  });
}

/** First and last vertices as doubles; the others as float offsets for x, y (and z); m stays a double. */
function compressedLine(r: ByteReader, dims: Dimensions): Position[] {
  const n = r.count(8);
  const out: Position[] = [];
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < n; i++) {
    let m = 0;
    if (i === 0 || i === n - 1) {
      const p = readPosition(r, dims);
      [x, y] = p;
      if (dims.hasZ) z = p[2];
      if (dims.hasM) m = p[dims.hasZ ? 3 : 2];
    } else {
      x += r.f32();
      y += r.f32();
      if (dims.hasZ) z += r.f32();
      if (dims.hasM) m = r.f64();
    }
    const p: Position = [x, y];
    if (dims.hasZ) p.push(z);
    if (dims.hasM) p.push(m);
    out.push(p);
  }
  return out;
}
