import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { sqliteFieldType, sqliteGeometryBase } from '../../../lib/ingest/sqlite-fields.js';
import {
  decodeGeoPackageGeometry,
  decodeSpatialiteGeometry,
  geoPackagePointAt,
  geoPackagePointXY,
} from '../../../lib/ingest/sqlite-geometry.js';
import { decodeWkb, GeometryDecodeError } from '../../../lib/ingest/wkb-geometry.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));

/** Little-endian bytes of a sequence of [kind, value] pairs. */
function bytes(...parts: ['u8' | 'u32' | 'f32' | 'f64', number][]): Uint8Array {
  const size = parts.reduce((n, [k]) => n + (k === 'u8' ? 1 : k === 'u32' || k === 'f32' ? 4 : 8), 0);
  const view = new DataView(new ArrayBuffer(size));
  let at = 0;
  for (const [k, v] of parts) {
    if (k === 'u8') view.setUint8(at++, v);
    else if (k === 'u32') {
      view.setUint32(at, v, true);
      at += 4;
    } else if (k === 'f32') {
      view.setFloat32(at, v, true);
      at += 4;
    } else {
      view.setFloat64(at, v, true);
      at += 8;
    }
  }
  return new Uint8Array(view.buffer);
}

describe('WKB', () => {
  it('reads a little-endian point (the OGC example POINT(1 2))', () => {
    expect(decodeWkb(hex('0101000000 000000000000F03F 0000000000000040'))).toEqual({
      geometry: { type: 'Point', coordinates: [1, 2] },
      hasZ: false,
      hasM: false,
    });
  });

  it('reads a big-endian line string', () => {
    const wkb = hex(
      '00 00000002 00000002 3FF0000000000000 4000000000000000 4008000000000000 4010000000000000',
    );
    expect(decodeWkb(wkb).geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    });
  });

  it('keeps ISO z and m ordinates in Esri order (z, then m) and reports them', () => {
    const z = bytes(['u8', 1], ['u32', 1001], ['f64', 5], ['f64', 6], ['f64', 7]);
    const m = bytes(['u8', 1], ['u32', 2001], ['f64', 5], ['f64', 6], ['f64', 9]);
    const zm = bytes(['u8', 1], ['u32', 3001], ['f64', 5], ['f64', 6], ['f64', 7], ['f64', 8]);
    expect(decodeWkb(z)).toEqual({
      geometry: { type: 'Point', coordinates: [5, 6, 7] },
      hasZ: true,
      hasM: false,
    });
    expect(decodeWkb(m)).toEqual({
      geometry: { type: 'Point', coordinates: [5, 6, 9] },
      hasZ: false,
      hasM: true,
    });
    expect(decodeWkb(zm)).toEqual({
      geometry: { type: 'Point', coordinates: [5, 6, 7, 8] },
      hasZ: true,
      hasM: true,
    });
  });

  it.each([
    ['ISO Z', 1002, 1003, 1005, true, false],
    ['ISO M', 2002, 2003, 2005, false, true],
    ['ISO ZM', 3002, 3003, 3005, true, true],
    ['EWKB Z', 0x80000002, 0x80000003, 0x80000005, true, false],
    ['EWKB M', 0x40000002, 0x40000003, 0x40000005, false, true],
    ['EWKB ZM', 0xc0000002, 0xc0000003, 0xc0000005, true, true],
  ] as const)('%s lines, polygons and multi-lines keep every ordinate', (_, line, polygon, multi, z, m) => {
    // Vertex i is (i, 10 + i), with z 100 + i and m 1000 + i where the type has them.
    const vertex = (i: number): ['f64', number][] => [
      ['f64', i],
      ['f64', 10 + i],
      ...(z ? [['f64', 100 + i] as ['f64', number]] : []),
      ...(m ? [['f64', 1000 + i] as ['f64', number]] : []),
    ];
    const position = (i: number) => [i, 10 + i, ...(z ? [100 + i] : []), ...(m ? [1000 + i] : [])];
    const lineBytes = bytes(['u8', 1], ['u32', line], ['u32', 2], ...vertex(1), ...vertex(2));
    expect(decodeWkb(lineBytes)).toEqual({
      geometry: { type: 'LineString', coordinates: [position(1), position(2)] },
      hasZ: z,
      hasM: m,
    });
    const ring = [1, 2, 3, 1];
    const polygonBytes = bytes(['u8', 1], ['u32', polygon], ['u32', 1], ['u32', 4], ...ring.flatMap(vertex));
    expect(decodeWkb(polygonBytes).geometry).toEqual({ type: 'Polygon', coordinates: [ring.map(position)] });
    const multiBytes = new Uint8Array([
      ...bytes(['u8', 1], ['u32', multi], ['u32', 2]),
      ...lineBytes,
      ...bytes(['u8', 1], ['u32', line], ['u32', 2], ...vertex(3), ...vertex(4)),
    ]);
    expect(decodeWkb(multiBytes).geometry).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [position(1), position(2)],
        [position(3), position(4)],
      ],
    });
  });

  it('refuses a multi-geometry whose member has other dimensions', () => {
    const member = bytes(['u8', 1], ['u32', 1], ['f64', 1], ['f64', 2]);
    const multi = new Uint8Array([...bytes(['u8', 1], ['u32', 1004], ['u32', 1]), ...member]);
    expect(() => decodeWkb(multi)).toThrow(/XYZ multi-geometry holds a XY member/);
  });

  it('reads an EWKB point with its SRID and z flag', () => {
    const ewkb = bytes(
      ['u8', 1],
      ['u32', 0xa0000001],
      ['u32', 4326],
      ['f64', -1.5],
      ['f64', 2.5],
      ['f64', 9],
    );
    expect(decodeWkb(ewkb)).toEqual({
      geometry: { type: 'Point', coordinates: [-1.5, 2.5, 9] },
      hasZ: true,
      hasM: false,
    });
  });

  it('reads a multipolygon of two parts', () => {
    const ring = (x: number): ['u32' | 'f64', number][] => [
      ['u32', 1],
      ['u32', 4],
      ['f64', x],
      ['f64', 0],
      ['f64', x + 1],
      ['f64', 0],
      ['f64', x + 1],
      ['f64', 1],
      ['f64', x],
      ['f64', 0],
    ];
    const wkb = bytes(
      ['u8', 1],
      ['u32', 6],
      ['u32', 2],
      ['u8', 1],
      ['u32', 3],
      ...ring(0),
      ['u8', 1],
      ['u32', 3],
      ...ring(10),
    );
    expect(decodeWkb(wkb).geometry).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
        [
          [
            [10, 0],
            [11, 0],
            [11, 1],
            [10, 0],
          ],
        ],
      ],
    });
  });

  it('reads POINT EMPTY (NaN coordinates) as no geometry', () => {
    expect(
      decodeWkb(bytes(['u8', 1], ['u32', 1], ['f64', Number.NaN], ['f64', Number.NaN])).geometry,
    ).toBeNull();
  });

  it('refuses a truncated blob and a count longer than the blob', () => {
    expect(() => decodeWkb(hex('0101000000 000000000000F03F 0000'))).toThrow(GeometryDecodeError);
    expect(() => decodeWkb(bytes(['u8', 1], ['u32', 2], ['u32', 1000000], ['f64', 1]))).toThrow(/too short/);
  });
});

describe('GeoPackage binary', () => {
  const point = bytes(['u8', 1], ['u32', 1], ['f64', 13.4], ['f64', 52.5]);

  it('skips the header and a 32-byte envelope before the WKB', () => {
    const header = bytes(
      ['u8', 0x47],
      ['u8', 0x50],
      ['u8', 0],
      ['u8', 0b0000_0011],
      ['u32', 4326],
      ['f64', 13.4],
      ['f64', 13.4],
      ['f64', 52.5],
      ['f64', 52.5],
    );
    const blob = new Uint8Array([...header, ...point]);
    expect(decodeGeoPackageGeometry(blob).geometry).toEqual({ type: 'Point', coordinates: [13.4, 52.5] });
  });

  it.each([
    [2, 6, 1001, [13.4, 52.5, 7]],
    [3, 6, 2001, [13.4, 52.5, 7]],
    [4, 8, 3001, [13.4, 52.5, 7, 8]],
  ] as const)(
    'skips an envelope of indicator %i (%i doubles) before a point of type %i',
    (indicator, doubles, type, want) => {
      const header = bytes(
        ['u8', 0x47],
        ['u8', 0x50],
        ['u8', 0],
        ['u8', (indicator << 1) | 1],
        ['u32', 4326],
      );
      const envelope = bytes(...(Array.from({ length: doubles }, () => ['f64', -99]) as ['f64', number][]));
      const wkb = bytes(['u8', 1], ['u32', type], ...(want.map((v) => ['f64', v]) as ['f64', number][]));
      expect(decodeGeoPackageGeometry(new Uint8Array([...header, ...envelope, ...wkb]))).toEqual({
        geometry: { type: 'Point', coordinates: want },
        hasZ: type !== 2001,
        hasM: type !== 1001,
      });
    },
  );

  it('reads the empty flag as no geometry', () => {
    const blob = new Uint8Array([0x47, 0x50, 0, 0b0001_0001, 0, 0, 0, 0, ...point]);
    expect(decodeGeoPackageGeometry(blob).geometry).toBeNull();
  });

  it('reads a plain 2D point in place as the general decoder does, and leaves every other blob to it', () => {
    const gp = (flags: number, envelopeDoubles: number, wkb: Uint8Array) =>
      new Uint8Array([
        0x47,
        0x50,
        0,
        flags,
        0xe6,
        0x10,
        0,
        0,
        ...bytes(...(Array.from({ length: envelopeDoubles }, () => ['f64', -1]) as ['f64', number][])),
        ...wkb,
      ]);
    // Big-endian POINT(13.4 52.5), written byte by byte.
    const bigEndian = new Uint8Array(21);
    const view = new DataView(bigEndian.buffer);
    view.setUint8(0, 0);
    view.setUint32(1, 1, false);
    view.setFloat64(5, 13.4, false);
    view.setFloat64(13, 52.5, false);
    const read = [
      gp(0b0000_0001, 0, point),
      gp(0b0000_0000, 0, bigEndian),
      gp(0b0000_0011, 4, point),
      gp(0b0000_0101, 6, point),
      gp(0b0000_1001, 8, point),
      gp(0b0000_0001, 0, new Uint8Array([...point, 0, 0, 0])),
    ];
    for (const blob of read) {
      expect(geoPackagePointXY(blob)).toEqual({ x: 13.4, y: 52.5 });
      expect(decodeGeoPackageGeometry(blob).geometry).toEqual({ type: 'Point', coordinates: [13.4, 52.5] });
    }
    const nan = bytes(['u8', 1], ['u32', 1], ['f64', Number.NaN], ['f64', Number.NaN]);
    const z = bytes(['u8', 1], ['u32', 1001], ['f64', 1], ['f64', 2], ['f64', 3]);
    const line = bytes(['u8', 1], ['u32', 2], ['u32', 1], ['f64', 1], ['f64', 2]);
    const left = [
      gp(0b0001_0001, 0, point), // the empty flag
      gp(0b0010_0001, 0, point), // extended GeoPackage geometry
      gp(0b0000_1011, 0, point), // envelope indicator 5: invalid
      gp(0b0000_0001, 0, nan), // POINT EMPTY as GDAL writes it
      gp(0b0000_0001, 0, z),
      gp(0b0000_0001, 0, line),
      gp(0b0000_0001, 0, point.subarray(0, 20)), // truncated
      gp(0b0000_0001, 0, new Uint8Array([2, ...point.subarray(1)])), // no byte order mark
      point, // no GP magic
    ];
    for (const blob of left) expect(geoPackagePointXY(blob)).toBeUndefined();
    // In place: each blob between other bytes, read by its bounds; the bytes after it are never read.
    const xy = new Float64Array([-1, -1]);
    for (const blob of [...read, ...left]) {
      const page = new Uint8Array(blob.length + 40).fill(0x47);
      page.set(blob, 17);
      const found = geoPackagePointAt(page, 17, blob.length, xy);
      expect(found).toBe(geoPackagePointXY(blob) !== undefined);
      if (found) expect([...xy]).toEqual([13.4, 52.5]);
      xy.fill(-1);
    }
    // A blob cut short reads as too short even where the page goes on with the rest of a point.
    const whole = gp(0b0000_0001, 0, point);
    const page = new Uint8Array(whole.length + 8);
    page.set(whole, 8);
    expect(geoPackagePointAt(page, 8, whole.length - 1, xy)).toBe(false);
    expect(geoPackagePointAt(page, 8, whole.length, xy)).toBe(true);
  });

  it('refuses a blob without the GP magic', () => {
    expect(() => decodeGeoPackageGeometry(point)).toThrow(/GP magic/);
  });
});

describe('SpatiaLite blobs with z and m', () => {
  /** Start (byte order, srid, MBR, 0x7C), class type and body, end mark: SpatiaLite's BLOB-Geometry. */
  const blob = (classType: number, ...body: ['u8' | 'u32' | 'f32' | 'f64', number][]) =>
    bytes(
      ['u8', 0],
      ['u8', 1],
      ['u32', 4326],
      ...([0, 0, 9, 9].map((v) => ['f64', v]) as ['f64', number][]),
      ['u8', 0x7c],
      ['u32', classType],
      ...body,
      ['u8', 0xfe],
    );

  it('a compressed XYZM line: middle vertices are float offsets of x, y and z, m a double', () => {
    const line = blob(
      1003002,
      ['u32', 3],
      ...([1, 2, 3, 4].map((v) => ['f64', v]) as ['f64', number][]),
      ['f32', 0.5],
      ['f32', -1],
      ['f32', 2],
      ['f64', 40],
      ...([5, 6, 7, 8].map((v) => ['f64', v]) as ['f64', number][]),
    );
    expect(decodeSpatialiteGeometry(line)).toEqual({
      geometry: {
        type: 'LineString',
        coordinates: [
          [1, 2, 3, 4],
          [1.5, 1, 5, 40],
          [5, 6, 7, 8],
        ],
      },
      hasZ: true,
      hasM: true,
    });
  });

  it('an XYM multipoint keeps m as the third ordinate', () => {
    const multi = blob(2004, ['u32', 1], ['u8', 0x69], ['u32', 2001], ['f64', 3], ['f64', 4], ['f64', 12.5]);
    expect(decodeSpatialiteGeometry(multi)).toEqual({
      geometry: { type: 'MultiPoint', coordinates: [[3, 4, 12.5]] },
      hasZ: false,
      hasM: true,
    });
  });
});

describe('geometries written by ogr2ogr (fixtures made from the CSV files beside them)', async () => {
  const SQL = await initSqlJs();
  const open = (f: string) => new SQL.Database(readFileSync(`test/fixtures/publish/sqlite/${f}`));
  const ringRoad = [
    [
      [1000, 2000],
      [1100, 2100],
      [1250, 2050],
    ],
    [
      [1300, 2000],
      [1400, 2000],
    ],
  ];

  it('GeoPackage: a 3-D point and a multi-line string', () => {
    const db = open('towns.gpkg');
    const [berlin] = db.exec('SELECT geom FROM places WHERE name = ?', ['Berlin'])[0]
      .values[0] as Uint8Array[];
    expect(decodeGeoPackageGeometry(berlin)).toEqual({
      geometry: { type: 'Point', coordinates: [13.405, 52.52, 34] },
      hasZ: true,
      hasM: false,
    });
    const [road] = db.exec("SELECT geom FROM roads WHERE name = 'Ring road'")[0].values[0] as Uint8Array[];
    expect(decodeGeoPackageGeometry(road).geometry).toEqual({
      type: 'MultiLineString',
      coordinates: ringRoad,
    });
  });

  it('SpatiaLite: compressed lines and a polygon with a hole', () => {
    const db = open('towns-spatialite.sqlite');
    const [road] = db.exec("SELECT GEOMETRY FROM roads WHERE name = 'Ring road'")[0]
      .values[0] as Uint8Array[];
    expect(decodeSpatialiteGeometry(road).geometry).toEqual({
      type: 'MultiLineString',
      coordinates: ringRoad,
    });
    const [parcel] = db.exec("SELECT GEOMETRY FROM parcels WHERE owner = 'Meyer'")[0]
      .values[0] as Uint8Array[];
    expect(decodeSpatialiteGeometry(parcel).geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [500000, 5800000],
          [500100, 5800000],
          [500100, 5800100],
          [500000, 5800100],
          [500000, 5800000],
        ],
        [
          [500020, 5800020],
          [500020, 5800040],
          [500040, 5800040],
          [500040, 5800020],
          [500020, 5800020],
        ],
      ],
    });
    const [london] = db.exec("SELECT GEOMETRY FROM places WHERE name = 'London'")[0]
      .values[0] as Uint8Array[];
    expect(decodeSpatialiteGeometry(london)).toEqual({
      geometry: { type: 'Point', coordinates: [-0.1276, 51.5072, 11] },
      hasZ: true,
      hasM: false,
    });
  });

  it('SpatiaLite: a blob cut short is refused', () => {
    const db = open('towns-spatialite.sqlite');
    const [road] = db.exec("SELECT GEOMETRY FROM roads WHERE name = 'Ring road'")[0]
      .values[0] as Uint8Array[];
    expect(() => decodeSpatialiteGeometry(road.subarray(0, 60))).toThrow(GeometryDecodeError);
  });
});

describe('declared column types', () => {
  it.each([
    ['TEXT(30)', true, { type: 'esriFieldTypeString', length: 30 }],
    ['VARCHAR(40)', false, { type: 'esriFieldTypeString', length: 40 }],
    ['TEXT', true, { type: 'esriFieldTypeString' }],
    ['INTEGER', true, { type: 'esriFieldTypeBigInteger' }],
    ['INTEGER', false, { type: 'esriFieldTypeInteger' }],
    ['BIGINT', false, { type: 'esriFieldTypeBigInteger' }],
    ['MEDIUMINT', true, { type: 'esriFieldTypeInteger' }],
    ['SMALLINT', true, { type: 'esriFieldTypeSmallInteger' }],
    ['INTEGER_BOOLEAN', false, { type: 'esriFieldTypeSmallInteger' }],
    ['FLOAT', true, { type: 'esriFieldTypeSingle' }],
    ['FLOAT', false, { type: 'esriFieldTypeDouble' }],
    ['REAL', true, { type: 'esriFieldTypeDouble' }],
    ['DATETIME', true, { type: 'esriFieldTypeDate' }],
    ['TIMESTAMP', false, { type: 'esriFieldTypeDate' }],
    ['BLOB', true, null],
  ] as const)('%s (GeoPackage: %s)', (declared, gpkg, expected) => {
    expect(sqliteFieldType(declared, gpkg)).toEqual(expected);
  });

  it('geometry type names give base types, z/m suffixes aside', () => {
    expect(
      ['POINT', 'MULTILINESTRING', 'POLYGONZ', 'MULTIPOLYGON ZM', 'GEOMETRY'].map(sqliteGeometryBase),
    ).toEqual([1, 5, 3, 6, 0]);
  });
});
