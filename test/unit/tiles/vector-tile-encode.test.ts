import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { vectorTileSet } from '../../../lib/tiles/vector-tile-encode.js';

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
});
