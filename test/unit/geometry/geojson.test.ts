import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { esriToGeoJSON, geoJSONToEsri } from '../../../lib/geometry/geojson.js';
import type { GeoJSONGeometry, GeoJSONPolygon } from '../../../lib/geometry/geojson-types.js';
import { ringSignedArea } from '../../../lib/geometry/point-in-polygon.js';
import type { EsriPolygon } from '../../../lib/geometry/types.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/geometry/${name}`, import.meta.url), 'utf8'));

const multiPolygon = fixture('multipolygon-with-hole.geojson') as GeoJSONGeometry;
const esriPolygon = fixture('multipolygon-with-hole.esri.json') as EsriPolygon;

describe('Esri JSON to GeoJSON', () => {
  it('groups the hole with its outer ring and the island apart, as a MultiPolygon', () => {
    expect(esriToGeoJSON(esriPolygon)).toEqual(multiPolygon);
  });

  it('turns outer rings counter-clockwise and holes clockwise (RFC 7946)', () => {
    const g = esriToGeoJSON(esriPolygon);
    if (g?.type !== 'MultiPolygon') throw new Error('expected a MultiPolygon');
    expect(ringSignedArea(g.coordinates[0][0])).toBeGreaterThan(0);
    expect(ringSignedArea(g.coordinates[0][1])).toBeLessThan(0);
  });

  it('gives a single-ring polygon as a Polygon, closing an unclosed ring', () => {
    const g = esriToGeoJSON({
      rings: [
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
        ],
      ],
    }) as GeoJSONPolygon;
    expect(g.type).toBe('Polygon');
    expect(g.coordinates[0]).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
  });

  it('groups each hole into the smallest outer ring that holds it', () => {
    const big = [
      [0, 0],
      [0, 100],
      [100, 100],
      [100, 0],
      [0, 0],
    ];
    const bigHole = [
      [10, 10],
      [90, 10],
      [90, 90],
      [10, 90],
      [10, 10],
    ];
    const islandInHole = [
      [40, 40],
      [40, 60],
      [60, 60],
      [60, 40],
      [40, 40],
    ];
    const islandHole = [
      [45, 45],
      [55, 45],
      [55, 55],
      [45, 55],
      [45, 45],
    ];
    const g = esriToGeoJSON({ rings: [islandHole, big, islandInHole, bigHole] });
    expect(g?.type).toBe('MultiPolygon');
    if (g?.type !== 'MultiPolygon') return;
    expect(g.coordinates.map((p) => p.length)).toEqual([2, 2]);
    expect(g.coordinates[0][0][0]).toEqual([0, 0]);
    expect(g.coordinates[1][1]).toContainEqual([45, 45]);
  });

  it('groups rings that all run counter-clockwise by how deeply they nest', () => {
    const outer = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const hole = [
      [2, 2],
      [8, 2],
      [8, 8],
      [2, 8],
      [2, 2],
    ];
    const g = esriToGeoJSON({ rings: [outer, hole] }) as GeoJSONPolygon;
    expect(g.type).toBe('Polygon');
    expect(g.coordinates).toHaveLength(2);
    expect(ringSignedArea(g.coordinates[1])).toBeLessThan(0);
  });

  it('turns a hole that no outer ring holds into a polygon of its own', () => {
    const orphan = [
      [20, 20],
      [30, 20],
      [30, 30],
      [20, 30],
      [20, 20],
    ]; // counter-clockwise: a hole
    const g = esriToGeoJSON({
      rings: [
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
          [0, 0],
        ],
        orphan,
      ],
    });
    expect(g?.type).toBe('MultiPolygon');
    if (g?.type !== 'MultiPolygon') return;
    expect(g.coordinates[1]).toHaveLength(1);
    expect(ringSignedArea(g.coordinates[1][0])).toBe(100);
  });

  it('maps points, multipoints and polylines to their GeoJSON kinds, keeping z', () => {
    expect(esriToGeoJSON({ x: 1, y: 2, z: 3 })).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    expect(esriToGeoJSON({ points: [[1, 2]] })).toEqual({ type: 'MultiPoint', coordinates: [[1, 2]] });
    expect(
      esriToGeoJSON({
        paths: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      })?.type,
    ).toBe('LineString');
    expect(
      esriToGeoJSON({
        paths: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [2, 2],
            [3, 3],
          ],
        ],
      })?.type,
    ).toBe('MultiLineString');
  });

  it('gives null for empty geometries', () => {
    expect(esriToGeoJSON({ rings: [] })).toBeNull();
    expect(esriToGeoJSON({ x: Number.NaN, y: Number.NaN })).toBeNull();
  });

  it('turns an envelope into a counter-clockwise polygon', () => {
    const g = esriToGeoJSON({ xmin: 0, ymin: 0, xmax: 2, ymax: 1 }) as GeoJSONPolygon;
    expect(ringSignedArea(g.coordinates[0])).toBe(2);
  });
});

describe('GeoJSON to Esri JSON', () => {
  it('flattens a MultiPolygon into clockwise outer rings and counter-clockwise holes', () => {
    expect(geoJSONToEsri(multiPolygon, { wkid: 4326 })).toEqual(esriPolygon);
  });

  it('reorients rings given the wrong way round', () => {
    const cwOuter = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ];
    const g = geoJSONToEsri({ type: 'Polygon', coordinates: [cwOuter.slice().reverse()] }) as EsriPolygon;
    expect(g.rings[0]).toEqual(cwOuter);
  });

  it('round-trips a polygon with holes through GeoJSON unchanged', () => {
    expect(geoJSONToEsri(esriToGeoJSON(esriPolygon)!, { wkid: 4326 })).toEqual(esriPolygon);
  });

  it('converts points and lines', () => {
    expect(geoJSONToEsri({ type: 'Point', coordinates: [5, 6] })).toEqual({ x: 5, y: 6 });
    expect(
      geoJSONToEsri({
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
    ).toEqual({
      paths: [
        [
          [0, 0],
          [1, 1],
        ],
      ],
    });
  });

  it('merges a collection of one dimension and rejects a mixed one with a 400', () => {
    expect(
      geoJSONToEsri({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [0, 0] },
          { type: 'MultiPoint', coordinates: [[1, 1]] },
        ],
      }),
    ).toEqual({
      points: [
        [0, 0],
        [1, 1],
      ],
    });
    const mixed = () =>
      geoJSONToEsri({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [0, 0] },
          {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        ],
      });
    expect(mixed).toThrow(GeoError);
  });
});
