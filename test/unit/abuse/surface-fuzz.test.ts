/**
 * The other surfaces that take filters and geometry to the database, under drawn requests: the
 * service-level query and the dynamic MapServer's export, identify, find and layer query (layerDefs
 * drawn from the where grammar), the OGC API Features items (bbox, datetime, limit, offset, property
 * filters) and WMS GetMap and GetFeatureInfo, all on the `kinds` layer (hosted-kinds.ts). Each request
 * is answered, or refused with a 4xx in its surface's own format; never a server error.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzSuite } from './fuzz-support.js';
import { type HostedKinds, openHostedKinds } from './hosted-kinds.js';
import { whereArbitraries } from './where-grammar.js';

const suite = fuzzSuite('map and OGC surfaces');
const grammar = whereArbitraries();
const ROOT = '/rest/services/Hosted/kinds';

const one = (...values: string[]) => fc.constantFrom(...values);
/** Left out three times in four; else a good value, or one time in ten a bad one. */
const param = (good: string[], bad: string[] = []) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary:
        bad.length === 0
          ? one(...good)
          : fc.oneof(
              { weight: 9, arbitrary: one(...good) },
              { weight: 1, arbitrary: fc.oneof(one(...bad), fc.string({ maxLength: 12 })) },
            ),
    },
  );
const where = fc.oneof(one('1=1'), grammar.condition);
const layerDefs = fc.oneof(
  where.map((w) => JSON.stringify({ 0: w })),
  where.map((w) => JSON.stringify([{ layerId: 0, where: w, outFields: '*' }])),
  where.map((w) => `0:${w}`),
  one('{"7":"1=1"}', '[]', '{', 'null'),
);
const extent = one(
  '-1000,-3000,5000,10',
  '-20037508,-20037508,20037508,20037508',
  '0,0,0,0',
  '5,5,-5,-5',
  '1e300,0,1e301,1',
);
const layers = fc.oneof(
  { weight: 6, arbitrary: one('show:0', 'all:0', 'top', 'visible:0', 'all', 'include:0') },
  { weight: 1, arbitrary: one('hide:0', 'show:7', 'show:', 'bogus:0') },
);
const envelope = '{"xmin":-1000,"ymin":-3000,"xmax":5000,"ymax":10}';

interface Drawn {
  path: string;
  params: Record<string, string | undefined>;
  method?: 'GET' | 'POST';
}

const request: fc.Arbitrary<Drawn> = fc.oneof(
  fc
    .record({
      layerDefs,
      returnCountOnly: param(['true', 'false']),
      returnIdsOnly: param(['true', 'false']),
      returnGeometry: param(['true', 'false']),
      geometry: param([envelope, '{"x":0,"y":0}'], ['{"x":"a"}']),
      outSR: param(['4326', '102100'], ['1']),
      f: one('json', 'pjson', 'geojson'),
    })
    .map((p) => ({ path: `${ROOT}/FeatureServer/query`, params: p })),
  fc
    .record({
      bbox: extent,
      size: param(['256,256', '1,1', '4096,4096'], ['0,0', '100000,100000', '-1,5']),
      format: param(['png', 'png8', 'png32', 'jpg', 'gif', 'svg', 'pdf'], ['bmp']),
      dpi: param(['96', '300'], ['0', '-1', '100000']),
      transparent: param(['true', 'false']),
      layers: fc.option(layers, { nil: undefined }),
      layerDefs: fc.option(layerDefs, { nil: undefined }),
      bboxSR: param(['102100', '4326', '3857'], ['99999']),
      imageSR: param(['102100', '4326'], ['99999']),
      time: fc.option(one('0,1', '1577836800000,1609459200000'), { nil: undefined, freq: 10 }),
      f: one('json', 'image', 'pjson'),
    })
    .map((p) => ({ path: `${ROOT}/MapServer/export`, params: p })),
  fc
    .record({
      geometry: fc.oneof(
        { weight: 6, arbitrary: one('{"x":0,"y":0}', '0,0', envelope, '{"points":[[0,0]]}') },
        { weight: 1, arbitrary: one('{"x":1e400,"y":0}', '', '{"rings":[]}') },
      ),
      geometryType: param(['esriGeometryPoint', 'esriGeometryEnvelope', 'esriGeometryMultipoint']),
      tolerance: fc.oneof(
        { weight: 6, arbitrary: one('0', '3', '100') },
        { weight: 1, arbitrary: one('-1', '1e300') },
      ),
      mapExtent: extent,
      imageDisplay: one('400,400,96', '1,1,1', '0,0,0', '400,400'),
      layers: fc.option(layers, { nil: undefined }),
      layerDefs: fc.option(layerDefs, { nil: undefined }),
      returnGeometry: param(['true', 'false']),
      sr: param(['102100', '4326'], ['99999']),
      f: one('json', 'pjson'),
    })
    .map((p) => ({ path: `${ROOT}/MapServer/identify`, params: p })),
  fc
    .record({
      searchText: fc.oneof(
        one('plain', '%', '_', '', '1', '2020', 'Zürich', "'", '\\'),
        fc.string({ maxLength: 8 }),
      ),
      searchFields: param(['Name', 'Name,Code', 'Count', 'Seen', 'Day,Clock', 'Big,Ratio'], ['nosuch']),
      contains: param(['true', 'false']),
      layers: fc.oneof(
        { weight: 6, arbitrary: one('0', 'all:0', 'visible:0') },
        { weight: 1, arbitrary: one('0,7', '', 'a') },
      ),
      layerDefs: fc.option(layerDefs, { nil: undefined }),
      returnGeometry: param(['true', 'false']),
      sr: param(['102100', '4326'], ['99999']),
      f: one('json', 'pjson'),
    })
    .map((p) => ({ path: `${ROOT}/MapServer/find`, params: p })),
  fc
    .record({
      where,
      outFields: param(['*', 'Name,Seen']),
      returnCountOnly: param(['true']),
      f: one('json', 'geojson'),
    })
    .map((p) => ({ path: `${ROOT}/MapServer/0/query`, params: p })),
  fc
    .record({
      bbox: param(
        ['-180,-90,180,90', '-1,-1,1,1', '0,0,0,0', '10,10,-10,-10', '-180,-90,-1000,180,90,1000'],
        ['a,b,c,d', '1,2,3'],
      ),
      'bbox-crs': param(
        ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 'http://www.opengis.net/def/crs/EPSG/0/3857'],
        ['x'],
      ),
      datetime: param(
        ['2020-01-01T00:00:00Z', '../2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z/..', '..'],
        ['2020-13-45', '/'],
      ),
      limit: param(['1', '10', '10000'], ['0', '-1', '99999999999']),
      offset: param(['0', '3', '99999999'], ['-1']),
      Name: param(['plain', '', '%']),
      Count: param(['1', '2147483647'], ['x', '1e400']),
      Seen: param(['2020-01-01T00:00:00Z'], ['yesterday']),
      crs: param(
        ['http://www.opengis.net/def/crs/EPSG/0/3857', 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'],
        ['EPSG:1'],
      ),
      properties: param(['Name', 'Name,Count', ''], ['nosuch']),
      f: param(['json', 'geojson', 'html']),
    })
    .map((p) => ({
      path: `${ROOT}/OGCFeatureServer/collections/0/items`,
      params: p,
      method: 'GET' as const,
    })),
  fc
    .record({
      version: one('1.1.1', '1.3.0'),
      REQUEST: one('GetMap', 'GetFeatureInfo'),
      LAYERS: fc.oneof({ weight: 6, arbitrary: one('0') }, { weight: 1, arbitrary: one('kinds', '7', '') }),
      STYLES: one('', 'default'),
      crs: fc.oneof(
        { weight: 6, arbitrary: one('EPSG:3857', 'EPSG:4326') },
        { weight: 1, arbitrary: one('EPSG:99999', '') },
      ),
      BBOX: extent,
      WIDTH: fc.oneof(
        { weight: 6, arbitrary: one('256', '1') },
        { weight: 1, arbitrary: one('0', '99999', 'a') },
      ),
      HEIGHT: fc.oneof(
        { weight: 6, arbitrary: one('256', '1') },
        { weight: 1, arbitrary: one('0', '99999') },
      ),
      FORMAT: fc.oneof(
        { weight: 6, arbitrary: one('image/png', 'image/jpeg') },
        { weight: 1, arbitrary: one('image/bmp') },
      ),
      INFO_FORMAT: param(['text/xml', 'text/html', 'application/json', 'text/plain']),
      pixel: fc.oneof(
        { weight: 6, arbitrary: one('0', '128', '255') },
        { weight: 1, arbitrary: one('-1', '999999', 'a') },
      ),
      FEATURE_COUNT: param(['1', '10'], ['-1', '1e9']),
      TRANSPARENT: param(['TRUE', 'FALSE']),
    })
    .map(({ version, crs, pixel, ...p }) => ({
      path: '/services/Hosted/kinds/MapServer/WMSServer',
      params: {
        SERVICE: 'WMS',
        VERSION: version,
        ...p,
        QUERY_LAYERS: p.LAYERS,
        ...(version === '1.3.0' ? { CRS: crs, I: pixel, J: pixel } : { SRS: crs, X: pixel, Y: pixel }),
      },
      method: 'GET' as const,
    })),
);

describe('map, OGC and WMS requests under abuse', () => {
  let kinds: HostedKinds;
  beforeAll(async () => {
    kinds = await openHostedKinds();
  }, 120_000);
  afterAll(async () => kinds?.close());

  it('answers every drawn request, or refuses it with a 4xx in its own format', async () => {
    await suite.checkAsync(
      request,
      async ({ path, params, method = 'POST' }) => {
        const p = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const body = new URLSearchParams(p).toString();
        const res =
          method === 'GET'
            ? await kinds.app.request(`${path}?${body}`)
            : await kinds.app.request(path, {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body,
              });
        const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
        const context = `${path} ${JSON.stringify(p)}`;
        expect(res.status, `${context} -> ${text.slice(0, 300)}`).toBeLessThan(500);
        expect(text, context).not.toMatch(/"code"\s*:\s*5\d\d|unexpected error/i);
      },
      100,
    );
  });
});
