/**
 * Well-known binary (ISO and PostGIS EWKB dimension flags) read into GeoJSON geometry. Positions
 * keep the blob's z and m in Esri order: [x, y], then z when the blob has z, then m when it has m
 * (so an XYM position is [x, y, m]; `hasZ`/`hasM` say which). Also the geometry bodies of
 * SpatiaLite blobs, which are WKB without the byte order and type in front of every part.
 */
import type { GeoJSONGeometry, Position } from '../geometry/geojson-types.js';

export class GeometryDecodeError extends Error {}

export interface DecodedGeometry {
  /** Null for an empty geometry (POINT EMPTY is stored as NaN coordinates). */
  geometry: GeoJSONGeometry | null;
  hasZ: boolean;
  hasM: boolean;
}

export interface Dimensions {
  hasZ: boolean;
  hasM: boolean;
}

/** The base type (1 point … 7 collection) and dimensions of an ISO or EWKB type code. */
export function wkbTypeOf(code: number): { base: number } & Dimensions {
  const ewkbZ = (code & 0x80000000) !== 0;
  const ewkbM = (code & 0x40000000) !== 0;
  const iso = code & 0x0fffffff;
  const thousands = Math.floor(iso / 1000);
  if (thousands > 3) throw new GeometryDecodeError(`Unknown WKB geometry type ${code}.`);
  return {
    base: iso % 1000,
    hasZ: ewkbZ || thousands === 1 || thousands === 3,
    hasM: ewkbM || thousands === 2 || thousands === 3,
  };
}

/** A bounds-checked little/big-endian reader over bytes. */
export class ByteReader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    public offset = 0,
    public little = true,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number) {
    if (this.offset + n > this.bytes.byteLength)
      throw new GeometryDecodeError('The geometry ends before its coordinates do (truncated blob).');
  }
  u8(): number {
    this.need(1);
    return this.bytes[this.offset++];
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, this.little);
    this.offset += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.offset, this.little);
    this.offset += 4;
    return v;
  }
  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.offset, this.little);
    this.offset += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.offset, this.little);
    this.offset += 8;
    return v;
  }
  /** A count of items each at least `itemBytes` long: a corrupt count cannot allocate gigabytes. */
  count(itemBytes: number): number {
    const n = this.u32();
    if (n * itemBytes > this.bytes.byteLength - this.offset)
      throw new GeometryDecodeError(`The geometry claims ${n} parts or points but is too short for them.`);
    return n;
  }
}

/** Reads one position: [x, y], then z and m when the dimensions have them. */
export function readPosition(r: ByteReader, dims: Dimensions): Position {
  const p: Position = [r.f64(), r.f64()];
  if (dims.hasZ) p.push(r.f64());
  if (dims.hasM) p.push(r.f64());
  return p;
}

const pointBytes = (dims: Dimensions) => 16 + (dims.hasZ ? 8 : 0) + (dims.hasM ? 8 : 0);

export function readPositions(r: ByteReader, dims: Dimensions): Position[] {
  const n = r.count(pointBytes(dims));
  const out: Position[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readPosition(r, dims);
  return out;
}

export function readRings(r: ByteReader, dims: Dimensions): Position[][] {
  const n = r.count(4);
  const out: Position[][] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readPositions(r, dims);
  return out;
}

/** One WKB geometry from the reader's offset (the reader's offset ends after it). */
export function readWkbGeometry(r: ByteReader): DecodedGeometry {
  const order = r.u8();
  if (order > 1) throw new GeometryDecodeError(`Byte ${order} is not a WKB byte order mark.`);
  r.little = order === 1;
  const code = r.u32();
  const type = wkbTypeOf(code);
  if ((code & 0x20000000) !== 0) r.u32(); // EWKB SRID
  const dims = { hasZ: type.hasZ, hasM: type.hasM };
  const geometry = readBody(r, type.base, dims, () => {
    const part = readWkbGeometry(r);
    checkPartDimensions(part, dims);
    return part.geometry;
  });
  return { geometry, ...dims };
}

/** The members of a multi-geometry have its dimensions, so every position has the same layout. */
export function checkPartDimensions(part: Dimensions, whole: Dimensions): void {
  if (part.hasZ !== whole.hasZ || part.hasM !== whole.hasM)
    throw new GeometryDecodeError(
      `A ${dimensionName(whole)} multi-geometry holds a ${dimensionName(part)} member.`,
    );
}

const dimensionName = (d: Dimensions) => `XY${d.hasZ ? 'Z' : ''}${d.hasM ? 'M' : ''}`;

/**
 * The body of a geometry of base type `base`; `part` reads one member of a multi-geometry or
 * collection (whole WKB in WKB, a 0x69-marked entity in SpatiaLite).
 */
export function readBody(
  r: ByteReader,
  base: number,
  dims: Dimensions,
  part: () => GeoJSONGeometry | null,
): GeoJSONGeometry | null {
  switch (base) {
    case 1: {
      const p = readPosition(r, dims);
      // POINT EMPTY is NaN x and y (z and m of an empty point say nothing).
      return Number.isNaN(p[0]) && Number.isNaN(p[1]) ? null : { type: 'Point', coordinates: p };
    }
    case 2: {
      const coordinates = readPositions(r, dims);
      return coordinates.length === 0 ? null : { type: 'LineString', coordinates };
    }
    case 3: {
      const coordinates = readRings(r, dims);
      return coordinates.length === 0 ? null : { type: 'Polygon', coordinates };
    }
    case 4:
    case 5:
    case 6:
    case 7: {
      const n = r.count(5);
      const parts: GeoJSONGeometry[] = [];
      for (let i = 0; i < n; i++) {
        const g = part();
        if (g) parts.push(g);
      }
      return multi(base, parts);
    }
    default:
      throw new GeometryDecodeError(`Geometry type ${base} is not a point, line, polygon or collection.`);
  }
}

function multi(base: number, parts: GeoJSONGeometry[]): GeoJSONGeometry | null {
  if (parts.length === 0) return null;
  if (base === 7) return { type: 'GeometryCollection', geometries: parts };
  const want = base === 4 ? 'Point' : base === 5 ? 'LineString' : 'Polygon';
  const wrong = parts.find((p) => p.type !== want);
  if (wrong) throw new GeometryDecodeError(`A multi-geometry of ${want}s holds a ${wrong.type}.`);
  const coords = parts.map((p) => (p as { coordinates: unknown }).coordinates);
  if (base === 4) return { type: 'MultiPoint', coordinates: coords as Position[] };
  if (base === 5) return { type: 'MultiLineString', coordinates: coords as Position[][] };
  return { type: 'MultiPolygon', coordinates: coords as Position[][][] };
}

/** A whole WKB blob. */
export function decodeWkb(bytes: Uint8Array): DecodedGeometry {
  return readWkbGeometry(new ByteReader(bytes));
}
