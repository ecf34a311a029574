import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, publishFile, uniqueName, upload } from './publish/publish-client.js';
import { adminToken, call, stack } from './support/portal-client.js';

const run = promisify(execFile);

/** The libraries of the fixture with usable coordinates, read from the CSV itself. */
const libraries = readFileSync(fixture('chicago-libraries.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(','))
  .map(([name, code, , visitors, , lat, lon]) => ({
    name: name!,
    code: code!,
    visitors: Number(visitors),
    lat: Number(lat),
    lon: Number(lon),
  }))
  .filter((l) => Number.isFinite(l.lat) && Number.isFinite(l.lon));

let name = '';
let itemId = '';
const ogc = () => `/rest/services/Hosted/${name}/OGCFeatureServer`;

async function ogrinfo(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('ogrinfo', ['-ro', ...args], {
    env: { ...process.env, GDAL_HTTP_TIMEOUT: '30', CPL_VSIL_CURL_CACHE_SIZE: '0', ...env },
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** `Name (String) = value` lines of ogrinfo's feature dump. */
const values = (out: string, field: string) =>
  [...out.matchAll(new RegExp(`^\\s+${field} \\(\\w+\\) = (.*)$`, 'gm'))].map((m) => m[1]);

beforeAll(async () => {
  const token = await adminToken();
  name = uniqueName('ogc_libraries');
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
  );
  const { service, status } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
    ...analyzed.publishParameters,
    name,
  });
  expect(status.status).toBe('completed');
  itemId = service.serviceItemId;
});

describe('OGC API – Features over a hosted feature service', () => {
  it('asks for a token while the item is private and answers its owner', async () => {
    const anonymous = await fetch(`${stack().baseUrl}${ogc()}/collections`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('Token Required');
    const owner = await call(`${ogc()}/collections`, { token: await adminToken() }, { method: 'GET' });
    expect(owner.status).toBe(200);
    expect(owner.json.collections.map((c: { id: string }) => c.id)).toEqual(['0']);
  });

  it('serves the landing page, conformance and a collection with its CRS84 extent', async () => {
    const token = await adminToken();
    const landing = await call(ogc(), { token }, { method: 'GET' });
    expect(landing.headers.get('content-type')).toMatch(/^application\/json/);
    expect(landing.json.links[3].href).toBe(`${stack().baseUrl}${ogc()}/collections?token=${token}`);
    expect(landing.json.links.map((l: { rel: string }) => l.rel)).toEqual([
      'self',
      'service-desc',
      'conformance',
      'data',
    ]);
    const conformance = await call(`${ogc()}/conformance`, { token }, { method: 'GET' });
    expect(conformance.json.conformsTo).toContain(
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
    );
    const api = await call(`${ogc()}/api`, { token }, { method: 'GET' });
    expect(api.headers.get('content-type')).toMatch(/^application\/vnd\.oai\.openapi\+json/);
    expect(Object.keys(api.json.paths)).toContain('/collections/0/items');
    const collection = await call(`${ogc()}/collections/0`, { token }, { method: 'GET' });
    const [minx, miny, maxx, maxy] = collection.json.extent.spatial.bbox[0];
    expect(minx).toBeCloseTo(Math.min(...libraries.map((l) => l.lon)), 4);
    expect(miny).toBeCloseTo(Math.min(...libraries.map((l) => l.lat)), 4);
    expect(maxx).toBeCloseTo(Math.max(...libraries.map((l) => l.lon)), 4);
    expect(maxy).toBeCloseTo(Math.max(...libraries.map((l) => l.lat)), 4);
  });

  it('pages items with limit, offset, numberMatched and next links', async () => {
    const token = await adminToken();
    const seen: string[] = [];
    let url: string | undefined = `${stack().baseUrl}${ogc()}/collections/0/items?limit=4&token=${token}`;
    let pages = 0;
    while (url) {
      const res = await fetch(url);
      expect(res.headers.get('content-type')).toMatch(/^application\/geo\+json/);
      expect(res.headers.get('content-crs')).toBe('<http://www.opengis.net/def/crs/OGC/1.3/CRS84>');
      const page = (await res.json()) as Record<string, any>;
      expect(page.numberMatched).toBe(libraries.length);
      expect(page.numberReturned).toBe(page.features.length);
      seen.push(...page.features.map((f: any) => f.properties.Name));
      url = page.links.find((l: { rel: string }) => l.rel === 'next')?.href;
      pages++;
    }
    expect(pages).toBe(Math.ceil(libraries.length / 4));
    expect(seen.sort()).toEqual(libraries.map((l) => l.name).sort());
  });

  it('filters by bbox (in CRS84 and in EPSG:4326 lat/lon order) and by a property', async () => {
    const token = await adminToken();
    const box = { minLon: -87.7, minLat: 41.9, maxLon: -87.6, maxLat: 42.0 };
    const inside = libraries
      .filter((l) => l.lon >= box.minLon && l.lon <= box.maxLon && l.lat >= box.minLat && l.lat <= box.maxLat)
      .map((l) => l.name)
      .sort();
    expect(inside.length).toBeGreaterThan(0);
    const crs84 = await call(
      `${ogc()}/collections/0/items`,
      { token, bbox: `${box.minLon},${box.minLat},${box.maxLon},${box.maxLat}`, limit: '100' },
      { method: 'GET' },
    );
    expect(crs84.json.features.map((f: any) => f.properties.Name).sort()).toEqual(inside);
    const latLon = await call(
      `${ogc()}/collections/0/items`,
      {
        token,
        bbox: `${box.minLat},${box.minLon},${box.maxLat},${box.maxLon}`,
        'bbox-crs': 'http://www.opengis.net/def/crs/EPSG/0/4326',
        crs: 'http://www.opengis.net/def/crs/EPSG/0/4326',
        limit: '100',
      },
      { method: 'GET' },
    );
    expect(latLon.json.features.map((f: any) => f.properties.Name).sort()).toEqual(inside);
    const first = latLon.json.features[0];
    const source = libraries.find((l) => l.name === first.properties.Name)!;
    expect(first.geometry.coordinates[0]).toBeCloseTo(source.lat, 5);
    expect(first.geometry.coordinates[1]).toBeCloseTo(source.lon, 5);

    const byCode = await call(
      `${ogc()}/collections/0/items`,
      { token, Branch_Code: 'CHIN' },
      { method: 'GET' },
    );
    expect(byCode.json.numberMatched).toBe(1);
    expect(byCode.json.features[0].properties.Name).toBe('Chinatown Branch');
  });

  it('answers one feature in EPSG:3857 and 404 for a missing one', async () => {
    const token = await adminToken();
    const one = await call(
      `${ogc()}/collections/0/items/1`,
      { token, crs: 'http://www.opengis.net/def/crs/EPSG/0/3857' },
      { method: 'GET' },
    );
    expect(one.headers.get('content-crs')).toBe('<http://www.opengis.net/def/crs/EPSG/0/3857>');
    const source = libraries.find((l) => l.name === one.json.properties.Name)!;
    const R = 6378137;
    expect(one.json.geometry.coordinates[0]).toBeCloseTo((source.lon * Math.PI * R) / 180, 1);
    expect(one.json.geometry.coordinates[1]).toBeCloseTo(
      R * Math.log(Math.tan(Math.PI / 4 + (source.lat * Math.PI) / 360)),
      1,
    );
    const missing = await call(`${ogc()}/collections/0/items/999999`, { token }, { method: 'GET' });
    expect(missing.status).toBe(404);
    const noCollection = await call(`${ogc()}/collections/7`, { token }, { method: 'GET' });
    expect(noCollection.status).toBe(404);
  });

  it('refuses bad parameters with 400 and an OGC exception', async () => {
    const token = await adminToken();
    for (const params of <Record<string, string>[]>[
      { bbox: '1,2,3' },
      { limit: 'ten' },
      { crs: 'EPSG:27700' },
      { colour: 'red' },
    ]) {
      const res = await call(`${ogc()}/collections/0/items`, { token, ...params }, { method: 'GET' });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.json.code).toBe('InvalidParameterValue');
      expect(res.json.description.length).toBeGreaterThan(0);
    }
  });

  it('is read by GDAL (ogrinfo OAPIF) while private, with the token in the connection URL', async () => {
    const token = await adminToken();
    const summary = await ogrinfo(['-so', `OAPIF:${stack().baseUrl}${ogc()}?token=${token}`, '0']);
    expect(summary).toMatch(new RegExp(`Feature Count: ${libraries.length}\\b`));
  });

  it('is read by GDAL (ogrinfo OAPIF) with exact counts and values once shared', async () => {
    const owner = stack().admin.username;
    const shared = await call(`/sharing/rest/content/users/${owner}/items/${itemId}/share`, {
      token: await adminToken(),
      everyone: 'true',
    });
    expect(shared.json.itemId).toBe(itemId);
    const url = `OAPIF:${stack().baseUrl}${ogc()}`;
    // The service authorizer remembers answers for two seconds.
    await new Promise((r) => setTimeout(r, 2_100));
    const summary = await ogrinfo(['-so', url, '0']);
    expect(summary).toMatch(new RegExp(`Feature Count: ${libraries.length}\\b`));
    const all = await ogrinfo(['-oo', 'PAGE_SIZE=3', url, '0']);
    expect(values(all, 'Name').sort()).toEqual(libraries.map((l) => l.name).sort());
    expect(
      values(all, 'Visitors_2023')
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(libraries.map((l) => l.visitors).sort((a, b) => a - b));
    const west = await ogrinfo([url, '0', '-spat', '-87.9', '41.8', '-87.7', '42.0']);
    expect(values(west, 'Name').sort()).toEqual(
      libraries
        .filter((l) => l.lon >= -87.9 && l.lon <= -87.7 && l.lat >= 41.8 && l.lat <= 42.0)
        .map((l) => l.name)
        .sort(),
    );
  });
});
