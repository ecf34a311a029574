import { queryFeatures } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import {
  namesOf,
  publishFixture,
  query,
  readStations,
  type Station,
  stationParameters,
} from './query-client.js';

/**
 * Buffered filters (distance + units) on real layers: stations stored in WGS84 (geodesic distances)
 * and in Web Mercator (ground distances too: a Web Mercator metre is not a ground metre). Every expectation is computed here from the
 * fixture with textbook formulas (haversine, cross-track distance, the spherical Mercator), never
 * through the product.
 */
const R = 6371008.8;
const rad = Math.PI / 180;

function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(a));
}

const bearing = (lon1: number, lat1: number, lon2: number, lat2: number): number =>
  Math.atan2(
    Math.sin((lon2 - lon1) * rad) * Math.cos(lat2 * rad),
    Math.cos(lat1 * rad) * Math.sin(lat2 * rad) -
      Math.sin(lat1 * rad) * Math.cos(lat2 * rad) * Math.cos((lon2 - lon1) * rad),
  );

/** Distance from p to the great-circle segment a–b: cross-track when the foot is on it, else an end. */
function distanceToArc(p: number[], a: number[], b: number[]): number {
  const d13 = haversine(a[0], a[1], p[0], p[1]) / R;
  const t13 = bearing(a[0], a[1], p[0], p[1]);
  const t12 = bearing(a[0], a[1], b[0], b[1]);
  const xt = Math.asin(Math.sin(d13) * Math.sin(t13 - t12));
  const at = Math.acos(Math.cos(d13) / Math.cos(xt));
  const ends = Math.min(haversine(p[0], p[1], a[0], a[1]), haversine(p[0], p[1], b[0], b[1]));
  const length = haversine(a[0], a[1], b[0], b[1]) / R;
  return Math.cos(t13 - t12) > 0 && at <= length ? Math.min(Math.abs(xt) * R, ends) : ends;
}

/** Spherical (Web) Mercator, EPSG:3857. */
const mercator = (lon: number, lat: number): [number, number] => [
  6378137 * lon * rad,
  6378137 * Math.log(Math.tan(Math.PI / 4 + (lat * rad) / 2)),
];

/** Inverse spherical Mercator: EPSG:3857 metres to longitude and latitude. */
const lonLat = (x: number, y: number): [number, number] => [
  x / 6378137 / rad,
  (2 * Math.atan(Math.exp(y / 6378137)) - Math.PI / 2) / rad,
];

/**
 * Ground distance from a point (longitude, latitude) to a box given in Web Mercator: zero inside, else
 * the nearest of its four edges read as great-circle segments between its corners.
 */
function distanceToMercatorBox(p: [number, number], box: [number, number, number, number]): number {
  const [w, s] = lonLat(box[0], box[1]);
  const [e, n] = lonLat(box[2], box[3]);
  if (p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n) return 0;
  const corners = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
  return Math.min(...corners.map((a, i) => distanceToArc(p, a, corners[(i + 1) % 4])));
}

/** The names within `limit` by `distance`; asserts no station sits within 1% of the limit. */
function within(stations: Station[], limit: number, distance: (s: Station) => number): string[] {
  const ds = stations.map((s) => ({ s, d: distance(s) }));
  for (const { s, d } of ds)
    expect(Math.abs(d - limit), `${s.Name} too close to the limit`).toBeGreaterThan(limit * 0.01);
  return ds
    .filter(({ d }) => d <= limit)
    .map(({ s }) => s.Name)
    .sort();
}

const stations = readStations();
const center = [2.3522, 48.8566];
let token: string;
let authentication: ArcGISIdentityManager;
let geographic: string;
let mercatorLayer: string;

beforeAll(async () => {
  token = await signIn();
  authentication = await ArcGISIdentityManager.signIn({
    username: stack().admin.username,
    password: stack().admin.password,
    portal: `${stack().baseUrl}/sharing/rest`,
  });
  const a = uniqueName('dist_wgs84');
  const b = uniqueName('dist_merc');
  await publishFixture(token, 'stations.csv', 'csv', stationParameters(a, { targetSR: { wkid: 4326 } }));
  await publishFixture(token, 'stations.csv', 'csv', stationParameters(b));
  geographic = `${featureServer(a)}/0`;
  mercatorLayer = `${featureServer(b)}/0`;
});

describe('distance on a layer stored in WGS84 is geodesic', () => {
  it('finds the stations within 3 km of a point (queryFeatures), as haversine says', async () => {
    const expected = within(stations, 3000, (s) => haversine(center[0], center[1], s.lon, s.lat));
    expect(expected.length).toBeGreaterThan(2);
    expect(expected.length).toBeLessThan(stations.length - 2);
    const res = (await queryFeatures({
      url: `${stack().baseUrl}${geographic}`,
      authentication,
      geometry: { x: center[0], y: center[1], spatialReference: { wkid: 4326 } } as never,
      geometryType: 'esriGeometryPoint',
      distance: 3000,
      units: 'esriSRUnit_Meter',
      outFields: ['Name'],
    })) as Record<string, any>;
    expect(namesOf(res)).toEqual(expected);
  });

  it('reads miles, kilometres and nautical miles', async () => {
    for (const [units, value, metres] of [
      ['esriSRUnit_StatuteMile', 3, 3 * 1609.344],
      ['esriSRUnit_Kilometer', 10, 10000],
      ['esriSRUnit_NauticalMile', 2, 3704],
    ] as const) {
      const expected = within(stations, metres, (s) => haversine(center[0], center[1], s.lon, s.lat));
      const body = await query(geographic, token, {
        geometry: center.join(','),
        geometryType: 'esriGeometryPoint',
        distance: String(value),
        units,
        outFields: 'Name',
      });
      expect(namesOf(body), units).toEqual(expected);
    }
  });

  it('measures from a line to the nearest point of its great-circle segments', async () => {
    const line = [
      [2.3, 48.8],
      [2.42, 48.9],
    ];
    const expected = within(stations, 1500, (s) => distanceToArc([s.lon, s.lat], line[0], line[1]));
    expect(expected.length).toBeGreaterThan(0);
    const body = await query(geographic, token, {
      geometry: JSON.stringify({ paths: [line], spatialReference: { wkid: 4326 } }),
      geometryType: 'esriGeometryPolyline',
      distance: '1500',
      units: 'esriSRUnit_Meter',
      outFields: 'Name',
    });
    expect(namesOf(body)).toEqual(expected);
  });

  it('counts and lists ids through the same buffered filter', async () => {
    const expected = within(stations, 5000, (s) => haversine(center[0], center[1], s.lon, s.lat));
    const params = {
      geometry: center.join(','),
      geometryType: 'esriGeometryPoint',
      distance: '5',
      units: 'esriSRUnit_Kilometer',
    };
    expect((await query(geographic, token, { ...params, returnCountOnly: 'true' })).count).toBe(
      expected.length,
    );
    expect((await query(geographic, token, { ...params, returnIdsOnly: 'true' })).objectIds).toHaveLength(
      expected.length,
    );
  });
});

describe('distance on a layer stored in Web Mercator is ground distance', () => {
  it('buffers a point given in WGS84 by metres on the ground, not Web Mercator metres', async () => {
    const expected = within(stations, 3000, (s) => haversine(center[0], center[1], s.lon, s.lat));
    const c = mercator(center[0], center[1]);
    const planar = within(stations, 3000, (s) => {
      const p = mercator(s.lon, s.lat);
      return Math.hypot(p[0] - c[0], p[1] - c[1]);
    });
    // At 49°N a Web Mercator metre is about 0.66 ground metres: measuring in it would find fewer.
    expect(planar.length).toBeLessThan(expected.length);
    const body = await query(mercatorLayer, token, {
      geometry: center.join(','),
      geometryType: 'esriGeometryPoint',
      inSR: '4326',
      distance: '3000',
      units: 'esriSRUnit_Meter',
      outFields: 'Name',
    });
    expect(namesOf(body)).toEqual(expected);
  });

  it('buffers an envelope by feet, and by metres when no unit is given', async () => {
    const box: [number, number, number, number] = [...mercator(2.33, 48.85), ...mercator(2.36, 48.87)];
    const feet = within(stations, 3000 * 0.3048, (s) => distanceToMercatorBox([s.lon, s.lat], box));
    const inFeet = await query(mercatorLayer, token, {
      geometry: box.join(','),
      geometryType: 'esriGeometryEnvelope',
      distance: '3000',
      units: 'esriSRUnit_Foot',
      outFields: 'Name',
    });
    expect(namesOf(inFeet)).toEqual(feet);
    const native = within(stations, 3000, (s) => distanceToMercatorBox([s.lon, s.lat], box));
    const noUnits = await query(mercatorLayer, token, {
      geometry: box.join(','),
      geometryType: 'esriGeometryEnvelope',
      distance: '3000',
      outFields: 'Name',
    });
    expect(namesOf(noUnits)).toEqual(native);
    expect(native.length).toBeGreaterThan(feet.length);
  });

  it('refuses a buffer with a relation other than intersects, and an unknown unit, naming them', async () => {
    const contains = await query(mercatorLayer, token, {
      geometry: '0,0,1,1',
      distance: '10',
      spatialRel: 'esriSpatialRelContains',
    });
    expect(contains.error.code).toBe(400);
    expect(contains.error.details[0]).toBe("'distance' parameter is invalid");
    const degrees = await query(mercatorLayer, token, {
      geometry: '0,0',
      distance: '10',
      units: 'esriSRUnit_Degree',
    });
    expect(degrees.error.details[0]).toBe("'units' parameter is invalid");
  });
});
