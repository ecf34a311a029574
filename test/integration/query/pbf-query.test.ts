/**
 * f=pbf and quantizationParameters on published layers of points, lines and polygons (holes,
 * multipart), decoded by protobufjs from Esri's schema (test/fixtures/pbf) and by rest-js's own PBF
 * reader, and compared with the same query in f=json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryFeatures } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  attributesOf,
  type DecodedFeatureResult,
  decodeFeatureCollection,
  membersOf,
  worldGeometry,
} from '../../fixtures/pbf/decode-feature-collection.js';
import { featureServer, uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

const fixtureDir = join(import.meta.dirname, '..', '..', 'fixtures', 'pbf');
const names: Record<'cities' | 'routes' | 'plots', string> = {
  cities: uniqueName('pbf_cities'),
  routes: uniqueName('pbf_routes'),
  plots: uniqueName('pbf_plots'),
};
let token: string;

async function publishFixture(key: keyof typeof names) {
  const owner = stack().admin.username;
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'geojson', publishParameters: JSON.stringify({ name: names[key] }) },
    { name: `${names[key]}.geojson`, path: join(fixtureDir, `${key}.geojson`) },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  expect(status.status).toBe('completed');
}

async function pbfQuery(key: keyof typeof names, params: Record<string, string>) {
  const body = new URLSearchParams({ token, f: 'pbf', ...params });
  const res = await fetch(`${stack().baseUrl}${featureServer(names[key])}/0/query`, { method: 'POST', body });
  expect(res.headers.get('content-type')).toBe('application/x-protobuf');
  return decodeFeatureCollection(new Uint8Array(await res.arrayBuffer()));
}

const jsonQuery = async (key: keyof typeof names, params: Record<string, string>) =>
  (await call(`${featureServer(names[key])}/0/query`, { token, ...params })).json;

/** Every vertex of an Esri JSON geometry, in order. */
function vertices(g: Record<string, any>): number[][] {
  if ('x' in g) return [[g.x, g.y]];
  return (g.points ? [g.points] : (g.paths ?? g.rings)).flat();
}

/** The parts' vertex counts of an Esri JSON geometry. */
const partSizes = (g: Record<string, any>): number[] =>
  'x' in g ? [1] : (g.points ? [g.points] : (g.paths ?? g.rings)).map((p: unknown[]) => p.length);

/** PBF (de-quantized) against f=json: same features, attributes, parts, and vertices within half a cell. */
function expectSameAnswer(pbf: DecodedFeatureResult, json: Record<string, any>) {
  expect(pbf.fields.map((f) => [f.name, f.fieldType])).toEqual(json.fields.map((f: any) => [f.name, f.type]));
  expect(pbf.features).toHaveLength(json.features.length);
  const t = pbf.transform!;
  const halfCell = Math.max(t.scale.xScale, t.scale.yScale) / 2 + 1e-9;
  json.features.forEach((feature: any, i: number) => {
    expect(attributesOf(pbf, i)).toEqual(feature.attributes);
    const world = worldGeometry(pbf.geometryType!, pbf.features![i].geometry!, t);
    expect(partSizes(world)).toEqual(partSizes(feature.geometry));
    const got = vertices(world);
    vertices(feature.geometry).forEach(([x, y], k) => {
      expect(Math.abs(got[k][0] - x)).toBeLessThanOrEqual(halfCell);
      expect(Math.abs(got[k][1] - y)).toBeLessThanOrEqual(halfCell);
    });
  });
}

beforeAll(async () => {
  token = await signIn();
  await Promise.all((Object.keys(names) as (keyof typeof names)[]).map(publishFixture));
});

describe('f=pbf feature answers', () => {
  const all = { where: '1=1', outFields: '*', orderByFields: 'OBJECTID', outSR: '4326' };

  it.each(['cities', 'routes', 'plots'] as const)('%s: PBF decodes to the f=json answer', async (key) => {
    const pbf = (await pbfQuery(key, all)).queryResult.featureResult!;
    expectSameAnswer(pbf, await jsonQuery(key, all));
    expect(pbf.spatialReference?.wkid).toBe(4326);
  });

  it('points come back at the file coordinates, attributes typed per field', async () => {
    const pbf = (await pbfQuery('cities', all)).queryResult.featureResult!;
    const file = JSON.parse(readFileSync(join(fixtureDir, 'cities.geojson'), 'utf8'));
    expect(pbf.geometryType).toBe('esriGeometryTypePoint');
    file.features.forEach((f: any, i: number) => {
      const p = worldGeometry('esriGeometryTypePoint', pbf.features![i].geometry!, pbf.transform!) as any;
      expect(p.x).toBeCloseTo(f.geometry.coordinates[0], 6);
      expect(p.y).toBeCloseTo(f.geometry.coordinates[1], 6);
      expect(attributesOf(pbf, i)).toMatchObject({ name: f.properties.name, pop: f.properties.pop });
    });
    expect(membersOf(pbf, 0)).toMatchObject({ OBJECTID: 'uint_value', name: 'string_value' });
    // San Francisco has no population: a Value with nothing set.
    expect(membersOf(pbf, 2).pop).toBeNull();
  });

  it('a polygon keeps its hole and a multipolygon both parts', async () => {
    const pbf = (await pbfQuery('plots', all)).queryResult.featureResult!;
    expect(pbf.geometryType).toBe('esriGeometryTypePolygon');
    expect(pbf.features?.map((f) => f.geometry?.lengths)).toEqual([
      [5, 5],
      [5, 4],
    ]);
    const holed = worldGeometry('esriGeometryTypePolygon', pbf.features![0].geometry!, pbf.transform!) as any;
    const xs = holed.rings[1].map((c: number[]) => Math.round(c[0]));
    expect(new Set(xs)).toEqual(new Set([2, 4]));
  });

  it('a multi-line keeps its two paths', async () => {
    const pbf = (await pbfQuery('routes', all)).queryResult.featureResult!;
    expect(pbf.geometryType).toBe('esriGeometryTypePolyline');
    expect(pbf.features?.map((f) => f.geometry?.lengths)).toEqual([[3], [2, 3]]);
  });

  it('count, ids, extent and statistics answers come in PBF too', async () => {
    expect(
      (await pbfQuery('cities', { where: 'ratio > 1', returnCountOnly: 'true' })).queryResult,
    ).toMatchObject({
      countResult: { count: 2 },
    });
    const ids = (await pbfQuery('cities', { where: '1=1', returnIdsOnly: 'true' })).queryResult.idsResult!;
    const jsonIds = await jsonQuery('cities', { where: '1=1', returnIdsOnly: 'true' });
    expect(ids.objectIdFieldName).toBe(jsonIds.objectIdFieldName);
    expect(ids.objectIds).toEqual(jsonIds.objectIds);
    const extent = (await pbfQuery('plots', { where: '1=1', returnExtentOnly: 'true', outSR: '4326' }))
      .queryResult.extentCountResult!.extent;
    expect(
      [extent.XMin, extent.YMin, extent.XMax, extent.YMax].map((v) => Math.round(v * 1e6) / 1e6),
    ).toEqual([0, 0, 32, 32]);
    const stats = (
      await pbfQuery('plots', {
        outStatistics: JSON.stringify([
          { statisticType: 'sum', onStatisticField: 'size', outStatisticFieldName: 'total' },
        ]),
      })
    ).queryResult.featureResult!;
    expect(stats.geometryType).toBe('esriGeometryTypeNone');
    expect(attributesOf(stats, 0)).toEqual({ total: 96 + 27 });
  });

  it('rest-js reads the answer with its own PBF parser (f=pbf-as-arcgis)', async () => {
    const authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
    const res = (await queryFeatures({
      url: `${stack().baseUrl}${featureServer(names.routes)}/0`,
      authentication,
      where: "name = 'one'",
      outSR: '4326',
      f: 'pbf-as-arcgis',
    } as never)) as any;
    expect(res.features).toHaveLength(1);
    expect(res.features[0].attributes).toMatchObject({ name: 'one', lanes: 2 });
    const path = res.features[0].geometry.paths[0].map((c: number[]) =>
      c.map((v) => Math.round(v * 1e6) / 1e6),
    );
    expect(path).toEqual([
      [0, 0],
      [1, 1],
      [2, 0.5],
    ]);
  });

  it('errors of f=pbf requests are the JSON error envelope', async () => {
    const body = new URLSearchParams({ token, f: 'pbf', where: 'nosuchfield = 1' });
    const res = await fetch(`${stack().baseUrl}${featureServer(names.cities)}/0/query`, {
      method: 'POST',
      body,
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const json = (await res.json()) as any;
    expect(json.error.code).toBe(400);
    expect(json.error.details.join(' ')).toMatch(/nosuchfield/i);
  });

  it('the layer advertises PBF and coordinate quantization', async () => {
    const layer = (await call(`${featureServer(names.cities)}/0`, { token }, { method: 'GET' })).json;
    expect(layer.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    expect(layer.supportsCoordinatesQuantization).toBe(true);
    expect(layer.advancedQueryCapabilities.supportsQuantizationEditMode).toBe(true);
  });
});

describe('quantizationParameters', () => {
  // The Maps SDK's request: view mode, upper left origin, a tolerance and the view's extent.
  const view = {
    mode: 'view',
    originPosition: 'upperLeft',
    tolerance: 0.5,
    extent: { xmin: -1, ymin: -1, xmax: 40, ymax: 40, spatialReference: { wkid: 4326 } },
  };
  const params = (q: object) => ({
    where: '1=1',
    outFields: 'name',
    orderByFields: 'OBJECTID',
    outSR: '4326',
    quantizationParameters: JSON.stringify(q),
  });

  it('JSON answers the grid as transform and geometries in cells, paths delta-encoded', async () => {
    const json = await jsonQuery('routes', params(view));
    expect(json.transform).toEqual({
      originPosition: 'upperLeft',
      scale: [0.5, 0.5, 0, 0],
      translate: [-1, 40, 0, 0],
    });
    // Route one: (0,0) (1,1) (2,0.5) → cells (2,80) (4,78) (6,79).
    expect(json.features[0].geometry.paths).toEqual([
      [
        [2, 80],
        [2, -2],
        [2, 1],
      ],
    ]);
  });

  it('PBF carries the same cells and transform as JSON', async () => {
    const json = await jsonQuery('plots', params(view));
    const pbf = (await pbfQuery('plots', params(view))).queryResult.featureResult!;
    expect(pbf.transform).toEqual({
      quantizeOriginPostion: 'upperLeft',
      scale: { xScale: 0.5, yScale: 0.5 },
      translate: { xTranslate: -1, yTranslate: 40 },
    });
    json.features.forEach((f: any, i: number) => {
      expect(pbf.features![i].geometry!.coords).toEqual(f.geometry.rings.flat(2));
      expect(pbf.features![i].geometry!.lengths).toEqual(f.geometry.rings.map((r: unknown[]) => r.length));
    });
  });

  it('view mode drops what fits in one cell; edit mode keeps every vertex', async () => {
    const coarse = { ...view, tolerance: 10 };
    const viewed = await jsonQuery('routes', params(coarse));
    // With 10° cells from (-1, 40) route one, (0,0) (1,1) (2,0.5), is all in cell (0,4): no part left.
    expect(viewed.features[0].geometry).toBeNull();
    const edited = await jsonQuery('routes', params({ ...coarse, mode: 'edit' }));
    expect(edited.features[0].geometry.paths).toEqual([
      [
        [0, 4],
        [0, 0],
        [0, 0],
      ],
    ]);
  });

  it('a lower left origin counts y upwards from the extent bottom', async () => {
    const json = await jsonQuery('cities', {
      ...params({ ...view, originPosition: 'lowerLeft', extent: { ...view.extent, xmin: -130, ymin: 30 } }),
    });
    expect(json.transform.translate).toEqual([-130, 30, 0, 0]);
    // Chicago (-87.6298, 41.8781): x (−87.6298 + 130) / 0.5 = 84.74 → 85, y (41.8781 − 30) / 0.5 = 23.76 → 24.
    expect(json.features[0].geometry).toEqual({ x: 85, y: 24 });
  });

  it('bad parameters are refused with a 400 naming quantizationParameters', async () => {
    const res = await jsonQuery('cities', params({ mode: 'draw' }));
    expect(res.error.code).toBe(400);
    expect(res.error.details[0]).toBe("'quantizationParameters' parameter is invalid");
    const geojson = await jsonQuery('cities', { ...params(view), f: 'geojson' });
    expect(geojson.error.details[1]).toMatch(/GeoJSON has no integer coordinates/);
  });
});
