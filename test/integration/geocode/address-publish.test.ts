import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { geocodeFixture, loadAddressPoints, metresBetween } from './geocode-client.js';

describe('publishing a CSV of addresses geocodes it with the embedded locator', () => {
  let token: string;
  let name: string;
  let analyzed: Record<string, any>;
  let published: Awaited<ReturnType<typeof publishFile>>;
  let features: Map<string, { x: number; y: number } | undefined>;

  beforeAll(async () => {
    token = await signIn();
    const loaded = await loadAddressPoints({ token, countryCode: 'US' }, 'openaddresses-madison.csv');
    if (!loaded.success) throw new Error(`loadAddressPoints failed: ${JSON.stringify(loaded)}`);
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'offices.csv', path: geocodeFixture('offices.csv') },
    );
    name = uniqueName('offices');
    published = await publishFile(
      token,
      '../geocode/offices.csv',
      'csv',
      { ...analyzed.publishParameters, name, sourceCountry: 'US', persistErrorRecordsForReview: true },
      {},
    );
    const query = await call(
      `${featureServer(name)}/0/query`,
      { token, where: '1=1', outFields: 'Name', outSR: '4326', returnGeometry: 'true' },
      { method: 'GET' },
    );
    features = new Map(query.json.features.map((f: any) => [f.attributes.Name, f.geometry]));
  }, 180_000);

  it('analyze proposes locationType address with the address columns by role', () => {
    const p = analyzed.publishParameters;
    expect(p.locationType).toBe('address');
    expect(p.addressFields).toMatchObject({
      Address: 'Address',
      City: 'City',
      Region: 'State',
      Postal: 'Zip',
    });
  });

  it('the job completes with the matched and tied rows loaded and the unmatched one rejected', () => {
    expect(published.status.status).toBe('completed');
    expect(published.status.rowsLoaded).toBe(4);
    expect(published.status.rowsRejected).toBe(1);
  });

  it('the status reports the matched, tied and unmatched counts', () => {
    expect(published.status).toMatchObject({ matched: 3, tied: 1, unmatched: 1 });
  });

  it('a tied address (the same street address in two cities of the state) is placed at one of them', () => {
    const at = features.get('Tied office') as { x: number; y: number };
    const nearest = Math.min(
      metresBetween(at, { x: -89.412, y: 43.069 }),
      metresBetween(at, { x: -89.43, y: 43.025 }),
    );
    expect(nearest).toBeLessThan(30);
  });

  it('a street address lands on its address point', () => {
    const at = features.get('Capitol office');
    expect(at).toBeDefined();
    expect(metresBetween(at as { x: number; y: number }, { x: -89.3866, y: 43.073 })).toBeLessThan(30);
  });

  it('a city with its state and a bare ZIP code land near their places', () => {
    expect(metresBetween(features.get('Denver office') as any, { x: -104.9847, y: 39.7392 })).toBeLessThan(
      20_000,
    );
    expect(metresBetween(features.get('Midtown office') as any, { x: -73.9967, y: 40.7484 })).toBeLessThan(
      5_000,
    );
  });

  it('the unmatched address is not published as a feature', () => {
    expect(features.has('Lost office')).toBe(false);
  });

  it('the unmatched and the tied rows are kept for review, the tied one saying it was a tie', async () => {
    const sql = postgres(stack().databaseUrl, { max: 1 });
    const rows = await sql`select reason, record from publish_error_records
      where job_id = ${published.service.jobId} order by row_number`;
    await sql.end();
    const byName = new Map(rows.map((r) => [(r.record as unknown[])[0], r.reason as string]));
    expect([...byName.keys()].sort()).toEqual(['Lost office', 'Tied office']);
    expect(byName.get('Tied office')).toMatch(/equally well.*published at the best/);
    expect(byName.get('Lost office')).toBe('The address was not found.');
  });
});
