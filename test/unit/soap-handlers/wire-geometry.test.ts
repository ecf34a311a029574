import { describe, expect, it } from 'vitest';
import {
  toEsriGeometry,
  toSoapGeometry,
  toSoapSpatialReference,
} from '../../../soap/handlers/wire-geometry.js';

describe('SOAP geometries', () => {
  it('reads a PolygonN ring as Esri JSON rings', () => {
    const pt = (X: number, Y: number) => ({ $type: 'PointN' as const, X, Y });
    const g = toEsriGeometry({
      $type: 'PolygonN',
      HasID: false,
      HasZ: false,
      HasM: false,
      RingArray: [{ PointArray: [pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 0)] }],
    });
    expect(g).toEqual({
      rings: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
  });

  it('writes a polyline back as PolylineN whose paths read back unchanged', () => {
    const line = {
      paths: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
    };
    expect(toEsriGeometry(toSoapGeometry(line))).toEqual(line);
  });

  it('refuses binary geometries with a fault naming the type', () => {
    expect(() => toEsriGeometry({ $type: 'PointB', Bytes: new Uint8Array(0) })).toThrow(
      /PointB is not supported/,
    );
  });

  it('calls WGS84 geographic and Web Mercator projected', () => {
    expect(toSoapSpatialReference({ wkid: 4326 }).$type).toBe('GeographicCoordinateSystem');
    expect(toSoapSpatialReference({ wkid: 102100, latestWkid: 3857 })).toEqual({
      $type: 'ProjectedCoordinateSystem',
      WKID: 102100,
      LatestWKID: 3857,
    });
  });
});
