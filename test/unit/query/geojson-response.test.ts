import { describe, expect, it } from 'vitest';
import { toGeoJsonGeometry } from '../../../lib/query/geojson-geometry.js';
import { renderGeoJson } from '../../../lib/query/geojson-response.js';
import { parcelFields } from './parcels-layer.js';

const square = (x0: number, y0: number, size: number, clockwise: boolean): number[][] => {
  const ring = [
    [x0, y0],
    [x0, y0 + size],
    [x0 + size, y0 + size],
    [x0 + size, y0],
    [x0, y0],
  ];
  return clockwise ? ring : ring.slice().reverse();
};

describe('Esri JSON to GeoJSON geometry', () => {
  it('converts points, keeping z', () => {
    expect(toGeoJsonGeometry({ x: 1, y: 2 })).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(toGeoJsonGeometry({ x: 1, y: 2, z: 3 })).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
  });

  it('converts a single path to a LineString and several to a MultiLineString', () => {
    expect(
      toGeoJsonGeometry({
        paths: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      }),
    ).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    expect(
      toGeoJsonGeometry({
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
      }),
    ).toMatchObject({ type: 'MultiLineString' });
  });

  it('turns a clockwise outer ring and its hole into one counter-clockwise polygon', () => {
    const outer = square(0, 0, 10, true);
    const hole = square(2, 2, 2, false);
    expect(toGeoJsonGeometry({ rings: [outer, hole] })).toEqual({
      type: 'Polygon',
      coordinates: [outer.slice().reverse(), hole.slice().reverse()],
    });
  });

  it('turns two outer rings into a MultiPolygon, each hole with its owner', () => {
    const a = square(0, 0, 10, true);
    const b = square(20, 0, 10, true);
    const holeInB = square(22, 2, 2, false);
    expect(toGeoJsonGeometry({ rings: [a, holeInB, b] })).toEqual({
      type: 'MultiPolygon',
      coordinates: [[a.slice().reverse()], [b.slice().reverse(), holeInB.slice().reverse()]],
    });
  });

  it('writes an envelope as a closed polygon', () => {
    expect(toGeoJsonGeometry({ xmin: 0, ymin: 0, xmax: 2, ymax: 1 })).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [2, 1],
          [0, 1],
          [0, 0],
        ],
      ],
    });
  });

  it('gives null for a missing geometry', () => {
    expect(toGeoJsonGeometry(null)).toBeNull();
  });
});

describe('GeoJSON feature collection', () => {
  const fields = [parcelFields.lookup('OBJECTID')!, parcelFields.lookup('Surveyed')!];

  it('uses the object id as the feature id and dates as epoch milliseconds', () => {
    const rows = [{ objectid: 7, attrs: { Surveyed: new Date(5000) }, shape: { x: 1, y: 2 } }];
    expect(renderGeoJson(fields, rows, false, 'OBJECTID')).toEqual({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 7,
          geometry: { type: 'Point', coordinates: [1, 2] },
          properties: { OBJECTID: 7, Surveyed: 5000 },
        },
      ],
    });
  });

  it('says exceededTransferLimit in the collection properties when more rows remain', () => {
    expect(renderGeoJson(fields, [], true, 'OBJECTID').properties).toEqual({ exceededTransferLimit: true });
  });
});
