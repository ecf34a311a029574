import { describe, expect, it } from 'vitest';
import {
  bboxInXY,
  CRS84,
  datetimeAsTime,
  EPSG3857,
  EPSG4326,
  parseBbox,
  parseCount,
  parseCrs,
  propertiesWhere,
  swapAxes,
} from '../../../lib/ogc/features-request.js';

const fields = [
  { name: 'OBJECTID', type: 'esriFieldTypeOID' },
  { name: 'Name', type: 'esriFieldTypeString' },
  { name: 'Visitors', type: 'esriFieldTypeInteger' },
  { name: 'Opened', type: 'esriFieldTypeDate' },
];

describe('OGC API – Features request parameters', () => {
  it('reads the three CRSs by URI and by safe CURIE, and refuses others', () => {
    expect(parseCrs('crs', CRS84)).toEqual({ uri: CRS84, wkid: 4326, latLon: false });
    expect(parseCrs('crs', '[EPSG:4326]')).toEqual({ uri: EPSG4326, wkid: 4326, latLon: true });
    expect(parseCrs('crs', 'https://www.opengis.net/def/crs/EPSG/0/3857')?.uri).toBe(EPSG3857);
    expect(parseCrs('crs', undefined)).toBeUndefined();
    expect(() => parseCrs('crs', 'EPSG:27700')).toThrow(/Unsupported crs/);
  });

  it('reads a 4- or 6-number bbox and refuses malformed ones', () => {
    expect(parseBbox('-88,41.5,-87.5,42')).toEqual([-88, 41.5, -87.5, 42]);
    expect(parseBbox('1,2,0,3,4,10')).toEqual([1, 2, 3, 4]);
    for (const bad of ['1,2,3', '1,2,x,4', '3,2,1,4', '1,,3,4'])
      expect(() => parseBbox(bad)).toThrow(/Invalid bbox/);
  });

  it('swaps a lat/lon bbox to x/y order only for EPSG:4326', () => {
    const b: [number, number, number, number] = [41, -88, 42, -87];
    expect(bboxInXY(b, parseCrs('bbox-crs', EPSG4326)!)).toEqual([-88, 41, -87, 42]);
    expect(bboxInXY(b, parseCrs('bbox-crs', CRS84)!)).toEqual(b);
  });

  it('caps limit at the maximum and refuses non-numbers and zero', () => {
    expect(parseCount('limit', '5000', 10, 1, 2000, true)).toBe(2000);
    expect(parseCount('limit', undefined, 10, 1, 2000, true)).toBe(10);
    expect(() => parseCount('limit', '0', 10, 1, 2000, true)).toThrow(/Invalid limit/);
    expect(() => parseCount('limit', '1.5', 10, 1, 2000, true)).toThrow(/Invalid limit/);
  });

  it('turns the properties filter into an escaped where clause and refuses unknown parameters', () => {
    expect(propertiesWhere({ limit: '3', name: "O'Hare", visitors: '42' }, fields)).toBe(
      "Name = 'O''Hare' AND Visitors = 42",
    );
    expect(propertiesWhere({ f: 'json' }, fields)).toBe('1=1');
    expect(() => propertiesWhere({ visitors: '4; drop' }, fields)).toThrow(/Invalid value for 'Visitors'/);
    expect(() => propertiesWhere({ opened: '2020' }, fields)).toThrow(/Unknown parameter 'opened'/);
    expect(() => propertiesWhere({ colour: 'red' }, fields)).toThrow(/Unknown parameter/);
  });

  it('swaps the axes of every position of a geometry', () => {
    expect(swapAxes({ type: 'Point', coordinates: [1, 2] })).toEqual({ type: 'Point', coordinates: [2, 1] });
    expect(
      swapAxes({
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 1],
              [2, 3],
              [4, 5],
              [0, 1],
            ],
          ],
        ],
      }),
    ).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [1, 0],
            [3, 2],
            [5, 4],
            [1, 0],
          ],
        ],
      ],
    });
  });
});

describe('datetime', () => {
  const detailOf = (run: () => unknown) => {
    try {
      run();
    } catch (e) {
      return (e as { details: string[] }).details[0];
    }
    throw new Error('expected an error');
  };

  it('becomes the FeatureServer time value: an instant, or an interval with open ends', () => {
    expect(datetimeAsTime('2018-02-12T23:20:50Z', true)).toBe(String(Date.UTC(2018, 1, 12, 23, 20, 50)));
    expect(datetimeAsTime('2018-02-12T00:00:00+01:00/..', true)).toBe(`${Date.UTC(2018, 1, 11, 23)},null`);
    expect(datetimeAsTime('../2018-03-18', true)).toBe(`null,${Date.UTC(2018, 2, 18)}`);
    expect(datetimeAsTime(undefined, false)).toBeUndefined();
  });

  it('is refused on a collection without time, without an offset, reversed or open as an instant', () => {
    expect(detailOf(() => datetimeAsTime('2018-02-12', false))).toMatch(/no temporal property/);
    expect(detailOf(() => datetimeAsTime('2018-02-12T10:00:00', true))).toMatch(/RFC 3339/);
    expect(detailOf(() => datetimeAsTime('2019-01-01/2018-01-01', true))).toMatch(/ends before/);
    expect(detailOf(() => datetimeAsTime('..', true))).toMatch(/cannot be open/);
  });
});
