import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureServer, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';
import { geocodeFixture } from './geocode-client.js';

const SERVICE = '/arcgis/rest/services/Offices/GeocodeServer';

/**
 * Another GeocodeServer (MaxBatchSize 2): places each record at longitude -100 - OBJECTID, latitude 40,
 * ties the record without a city or postal code, and misses the one in region ZZ.
 */
function startGeocodeServer(batches: number[][]): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === SERVICE) {
      res.end(JSON.stringify({ locatorProperties: { MaxBatchSize: 2 } }));
      return;
    }
    const records = JSON.parse(new URLSearchParams(body).get('addresses') ?? '{}').records as {
      attributes: Record<string, any>;
    }[];
    batches.push(records.map((r) => r.attributes.OBJECTID));
    const locations = records.map(({ attributes: a }) => {
      const status = a.Region === 'ZZ' ? 'U' : a.City || a.Postal ? 'M' : 'T';
      return {
        location: status === 'U' ? { x: 'NaN', y: 'NaN' } : { x: -100 - a.OBJECTID, y: 40 },
        attributes: { ResultID: a.OBJECTID, Status: status },
      };
    });
    res.end(JSON.stringify({ spatialReference: { wkid: 4326 }, locations }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('publishing addresses with a geocodeServiceUrl naming another GeocodeServer', () => {
  const batches: number[][] = [];
  let server: Server;
  let published: Awaited<ReturnType<typeof publishFile>>;
  let features: Map<string, { x: number; y: number }>;

  beforeAll(async () => {
    server = await startGeocodeServer(batches);
    const token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'offices.csv', path: geocodeFixture('offices.csv') },
    );
    const name = uniqueName('remote_offices');
    const port = (server.address() as AddressInfo).port;
    published = await publishFile(
      token,
      '../geocode/offices.csv',
      'csv',
      { ...analyzed.publishParameters, name, geocodeServiceUrl: `http://127.0.0.1:${port}${SERVICE}` },
      {},
    );
    const query = await call(
      `${featureServer(name)}/0/query`,
      { token, where: '1=1', outFields: 'Name', outSR: '4326', returnGeometry: 'true' },
      { method: 'GET' },
    );
    features = new Map(query.json.features.map((f: any) => [f.attributes.Name, f.geometry]));
  }, 180_000);

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends every row in batches no larger than the service’s MaxBatchSize', () => {
    expect(batches.every((b) => b.length <= 2)).toBe(true);
    expect(batches.flat().sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('places the rows where that service says and counts its statuses', () => {
    expect(published.status).toMatchObject({ status: 'completed', matched: 3, tied: 1, unmatched: 1 });
    expect(features.get('Denver office')?.x).toBeCloseTo(-102, 6);
    expect(features.get('Tied office')?.x).toBeCloseTo(-105, 6);
    expect(features.has('Lost office')).toBe(false);
  });
});

describe('publishing addresses with a geocodeServiceUrl on a host no administrator allowed', () => {
  it('fails the job saying the URL is not allowed', async () => {
    const token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'offices.csv', path: geocodeFixture('offices.csv') },
    );
    const url = 'http://169.254.169.254/arcgis/rest/services/Metadata/GeocodeServer';
    const { status } = await publishFile(
      token,
      '../geocode/offices.csv',
      'csv',
      { ...analyzed.publishParameters, name: uniqueName('metadata'), geocodeServiceUrl: url },
      {},
    );
    expect(status.status).toBe('failed');
    const reason = JSON.parse(status.statusMessage);
    // The job's message is the error's message followed by its details.
    expect(reason.message).toBe(
      `The URL is not allowed. ${url}?f=json: the host 169.254.169.254 is not among the hosts this server may contact. An administrator can allow its host with OUTBOUND_ALLOWED_HOSTS.`,
    );
  }, 180_000);
});
