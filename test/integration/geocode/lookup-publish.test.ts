import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { adminToken, call, signIn, stack } from '../support/portal-client.js';
import { geocodeFixture } from './geocode-client.js';

async function publishLookup(token: string, file: string, params: Record<string, unknown>) {
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: file, path: geocodeFixture(file) },
  );
  const name = uniqueName(file.replace(/\W/g, '_'));
  const published = await publishFile(
    token,
    `../geocode/${file}`,
    'csv',
    { ...analyzed.publishParameters, name, locationType: 'lookup', ...params },
    {},
  );
  return { name, published };
}

/** The value of `field` of the features whose polygon holds the WGS84 point. */
async function namesAt(name: string, field: string, x: number, y: number): Promise<string[]> {
  const query = await call(
    `${featureServer(name)}/0/query`,
    {
      token: await adminToken(),
      where: '1=1',
      outFields: field,
      geometry: JSON.stringify({ x, y, spatialReference: { wkid: 4326 } }),
      geometryType: 'esriGeometryPoint',
      spatialRel: 'esriSpatialRelIntersects',
      returnGeometry: 'false',
    },
    { method: 'GET' },
  );
  return query.json.features.map((f: any) => f.attributes[field]);
}

describe('publishing a CSV of country names with locationType lookup makes country polygons', () => {
  let token: string;
  let countries: Awaited<ReturnType<typeof publishLookup>>;
  let layer: Record<string, any>;

  beforeAll(async () => {
    token = await signIn();
    countries = await publishLookup(token, 'country-visitors.csv', {
      lookupType: 'country',
      lookupFields: { country: 'Country' },
      persistErrorRecordsForReview: true,
    });
    layer = (await call(`${featureServer(countries.name)}/0`, { token }, { method: 'GET' })).json;
  }, 180_000);

  it('the layer is a polygon layer with a default polygon renderer', () => {
    expect(layer.geometryType).toBe('esriGeometryPolygon');
    expect(layer.drawingInfo.renderer.symbol.type).toBe('esriSFS');
  });

  it('the matched countries are loaded and the unmatched value is counted and rejected', () => {
    expect(countries.published.status.status).toBe('completed');
    expect(countries.published.status).toMatchObject({
      rowsLoaded: 4,
      rowsRejected: 1,
      matched: 4,
      unmatched: 1,
    });
  });

  it('a point inside France finds the France row and nothing else', async () => {
    expect(await namesAt(countries.name, 'Country', 2.35, 48.85)).toEqual(['France']);
  });

  it('a point inside Japan finds the Japan row', async () => {
    expect(await namesAt(countries.name, 'Country', 139.69, 35.69)).toEqual(['Japan']);
  });

  it('the unmatched value is kept for review with its reason', async () => {
    const sql = postgres(stack().databaseUrl, { max: 1 });
    const rows = await sql`select row_number, reason, record from publish_error_records
      where job_id = ${countries.published.service.jobId} order by row_number`;
    await sql.end();
    expect(rows.map((r) => [r.row_number, r.reason, r.record[0]])).toEqual([
      [5, 'The value matched no boundary.', 'Atlantis'],
    ]);
  });
});

describe('a lookup publish without lookupFields finds the column of US state names itself', () => {
  let states: Awaited<ReturnType<typeof publishLookup>>;

  beforeAll(async () => {
    const token = await signIn();
    states = await publishLookup(token, 'us-states.csv', { lookupType: '', lookupFields: {} });
  }, 180_000);

  it('every state is matched and loaded as a polygon', () => {
    expect(states.published.status).toMatchObject({ status: 'completed', rowsLoaded: 4, matched: 4 });
  });

  it('a point inside Texas finds the Texas row', async () => {
    expect(await namesAt(states.name, 'State', -99.0, 31.0)).toEqual(['Texas']);
  });
});
