import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { type VectorFeature, vectorTileSet } from '../../../lib/tiles/vector-tile-encode.js';

const R = 6378137;
/** lon/lat → Web Mercator, written out here rather than taken from the code under test. */
const merc = (lon: number, lat: number) => [
  (lon * Math.PI * R) / 180,
  R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
];

const decode = (bytes: Uint8Array | undefined) => new VectorTile(new PbfReader(bytes!));

describe('vector tiles of feature layers', () => {
  it('clips a polygon to each tile plus the 64-unit buffer, keeping its attributes', () => {
    // A square from lon -10..10, lat -10..10: at level 1 it meets all four tiles around (0, 0).
    const ring = [merc(-10, -10), merc(-10, 10), merc(10, 10), merc(10, -10), merc(-10, -10)];
    const set = vectorTileSet(
      [
        {
          name: 'zones',
          features: [{ id: 7, geometry: { rings: [ring] }, properties: { kind: 'park', area: 3.5 } }],
        },
      ],
      4,
    );
    for (const [row, col] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]) {
      const layer = decode(set.tile(1, row, col)).layers.zones;
      expect(layer.length).toBe(1);
      const f = layer.feature(0);
      expect(f.id).toBe(7);
      expect(f.type).toBe(3);
      expect(f.properties).toEqual({ kind: 'park', area: 3.5 });
      const xs = f.loadGeometry()[0].map((p) => p.x);
      // Tile (row 0, col 1) starts at lon 0: the square reaches lon 10 = 4096 · 10/180 ≈ 228 units in,
      // and the clip keeps the buffer side up to -64.
      if (col === 1) {
        expect(Math.min(...xs)).toBe(-64);
        expect(Math.max(...xs)).toBe(Math.round((4096 * 10) / 180));
      }
    }
    expect(set.tile(1, 0, 0)).toBeDefined();
    // Level 2 tile (row 0, col 0) covers lon -180..-90: nothing there.
    expect(set.tile(2, 0, 0)).toBeUndefined();
  });

  it('simplifies a wiggly line below the last level and keeps every vertex at the last level', () => {
    // 201 vertices along lon -50..50 at lat 0 with a 0.001° zigzag: invisible at level 2, kept at level 8.
    const path = Array.from({ length: 201 }, (_, i) => merc(-50 + i * 0.5, i % 2 === 0 ? 0 : 0.001));
    const set = vectorTileSet(
      [{ name: 'roads', features: [{ id: 1, geometry: { paths: [path] }, properties: {} }] }],
      8,
    );
    const vertices = (level: number, row: number, col: number) =>
      decode(set.tile(level, row, col))
        .layers.roads.feature(0)
        .loadGeometry()
        .reduce((n, part) => n + part.length, 0);
    // Level 2, tile (row 1, col 1) holds lon 0..90 just below the equator line: the zigzag is gone, only
    // the two points where the line leaves the tile plus its buffer remain.
    expect(vertices(2, 1, 1)).toBe(2);
    // Level 8, tile (row 127, col 128) holds lon 0..1.40625: the vertices at lon 0, 0.5 and 1, and the two
    // points where the line leaves the tile plus its buffer.
    expect(vertices(8, 127, 128)).toBe(5);
  });

  it('walks a range in quadtree order with the bytes each tile has alone, holding one path of cut tiles', () => {
    // Drawn points, lines and polygons over Europe; the range at level 7 is not aligned to the quadtree.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const at = () => merc(-10 + next() * 40, 35 + next() * 25);
    const points: VectorFeature[] = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      geometry: (([x, y]) => ({ x, y }))(at()),
      properties: { n: i },
    }));
    const lines: VectorFeature[] = Array.from({ length: 60 }, (_, i) => ({
      id: i + 1,
      geometry: { paths: [Array.from({ length: 8 }, at)] },
      properties: { n: i },
    }));
    const squares: VectorFeature[] = Array.from({ length: 40 }, (_, i) => {
      const [x, y] = at();
      const d = 5000 + next() * 200_000;
      const ring = [
        [x, y],
        [x, y + d],
        [x + d, y + d],
        [x + d, y],
        [x, y],
      ];
      return { id: i + 1, geometry: { rings: [ring] }, properties: { n: i } };
    });
    const layers = [
      { name: 'points', features: points },
      { name: 'lines', features: lines },
      { name: 'squares', features: squares },
    ];
    // Level 7 tiles over lon -10..30, lat 35..60 (rows counted from the north).
    const range = { level: 7, minRow: 37, maxRow: 50, minCol: 57, maxCol: 75 };
    const walked = vectorTileSet(layers, 9);
    const seen: string[] = [];
    let mostHeld = 0;
    let withFeatures = 0;
    for (const { address, pbf } of walked.tilesOf(range)) {
      mostHeld = Math.max(mostHeld, walked.held());
      seen.push(`${address.row}/${address.col}`);
      // A fresh set, asked for this tile alone, makes the same bytes.
      const alone = vectorTileSet(layers, 9).tile(7, address.row, address.col);
      expect(pbf && Buffer.from(pbf), `${address.row}/${address.col}`).toEqual(alone && Buffer.from(alone));
      if (pbf) withFeatures++;
    }
    const everyAddress: string[] = [];
    for (let row = range.minRow; row <= range.maxRow; row++)
      for (let col = range.minCol; col <= range.maxCol; col++) everyAddress.push(`${row}/${col}`);
    expect([...seen].sort()).toEqual(everyAddress.sort());
    expect(withFeatures).toBeGreaterThan(200);
    // Quadtree order: the first four tiles of the aligned 2x2 block at rows 38-39, cols 58-59 come together.
    const block = ['38/58', '39/58', '38/59', '39/59'].map((k) => seen.indexOf(k));
    expect(block[1] - block[0]).toBe(1);
    expect(block[3] - block[0]).toBe(3);
    // Cut one tile after another, three layers hold at most the root and four tiles a level down each.
    expect(mostHeld).toBeLessThanOrEqual(3 * (1 + 4 * 7));
    expect(walked.held()).toBe(0);
    // Asked address by address, the same set keeps every tile it cut.
    const kept = vectorTileSet(layers, 9);
    for (const a of everyAddress) kept.tile(7, ...(a.split('/').map(Number) as [number, number]));
    expect(kept.held()).toBeGreaterThan(3 * 266);
  });
});
