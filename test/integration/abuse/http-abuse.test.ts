/**
 * The abuse suite through the running product: generated where clauses against a real layer, SOAP
 * entity bombs, oversized and misplaced bodies, a tile range over the budget and a zip bomb published
 * as a shapefile. Each ends in a clear error in the wire format of the surface that received it.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipBomb } from '../../fixtures/ingest/zip-writer.js';
import { fuzzRuns } from '../../unit/abuse/fuzz-support.js';
import { featureServer, uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { publishFeatures, publishTiles } from '../tiles/tile-client.js';

const WHERE_TOKENS = [
  'name',
  'kind',
  'OBJECTID',
  '=',
  '<>',
  'AND',
  'OR',
  'NOT',
  '(',
  ')',
  "'a'",
  '1',
  'LIKE',
  'IN',
  'IS NULL',
  'CAST(',
  'AS',
  'INTEGER',
  ',',
  ';',
  '--',
  'pg_sleep(5)',
  'UPPER(',
];

describe('abuse through the running product', () => {
  let token: string;
  let name: string;
  let itemId: string;

  beforeAll(async () => {
    token = await adminToken();
    name = uniqueName('abuse_pts');
    itemId = (await publishFeatures(token, 'points.geojson', 'geojson', name)).serviceItemId;
  }, 180_000);

  it('generated where clauses get features or a 400 envelope, never an HTTP 5xx', async () => {
    const clauses = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.array(fc.constantFrom(...WHERE_TOKENS), { maxLength: 20 }).map((t) => t.join(' ')),
      ),
      fuzzRuns(40),
    );
    for (const where of clauses) {
      const res = await call(`${featureServer(name)}/0/query`, { token, where, outFields: '*' });
      expect(res.status, where).toBeLessThan(500);
      if (res.json.error) expect(res.json.error.code, where).toBe(400);
      else expect(Array.isArray(res.json.features), where).toBe(true);
    }
  });

  it('a SOAP entity bomb is a SOAP fault, not an expansion', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "${'&lol;'.repeat(10)}"><!ENTITY lol2 "${'&lol1;'.repeat(10)}">]><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetServerInfo>&lol2;</GetServerInfo></soap:Body></soap:Envelope>`;
    const res = await fetch(`${stack().baseUrl}/services/Hosted/${name}/MapServer?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '' },
      body: bomb,
    });
    const text = await res.text();
    // SOAP 1.1 answers faults with HTTP 500 by specification; the body is the fault.
    expect(text).toContain('<faultcode>');
    expect(text).toContain('entity declarations are not allowed');
  });

  it('an anonymous 2 MB form body is refused with 413 in the REST envelope', async () => {
    const res = await call('/sharing/rest/info', { filler: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBeLessThan(500);
    expect(res.json.error).toMatchObject({
      code: 413,
      details: [
        'Requests without a valid token may send at most 1048576 bytes of form data (ANONYMOUS_BODY_MAX_BYTES).',
      ],
    });
  });

  it('a file sent to an operation that takes none is refused', async () => {
    const res = await upload(
      '/sharing/rest/community/self',
      { token },
      { name: 'x.csv', path: import.meta.filename },
    );
    expect(res.error).toMatchObject({ code: 400, message: 'This operation does not accept files.' });
  });

  it('a tile cache over the tile budget is refused at publish, naming the budget', async () => {
    const owner = stack().admin.username;
    const res = await upload(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      itemid: itemId,
      filetype: 'featureService',
      outputType: 'Tiles',
      publishParameters: JSON.stringify({ name: uniqueName('abuse_tiles'), levels: '0-23' }),
    });
    expect(res.error).toMatchObject({
      code: 400,
      details: [expect.stringContaining('(TILE_BUILD_MAX_TILES)')],
    });
  });

  it('a tile cache within the budget still builds', async () => {
    const { status } = await publishTiles(token, itemId, { name: uniqueName('abuse_ok'), levels: '3-4' });
    expect(status.status).toBe('completed');
  });

  it('a zip bomb published as a shapefile fails its job with the budget named and leaves no layer', async () => {
    const owner = stack().admin.username;
    const form = new FormData();
    const bombName = uniqueName('abuse_bomb');
    form.set('f', 'json');
    form.set('token', token);
    form.set('filetype', 'shapefile');
    form.set('publishParameters', JSON.stringify({ name: bombName }));
    form.set('file', new Blob([zipBomb('zeros.dbf', 4096)]), 'bomb.zip');
    const res = (await (
      await fetch(`${stack().baseUrl}/sharing/rest/content/users/${owner}/publish`, {
        method: 'POST',
        body: form,
      })
    ).json()) as Record<string, any>;
    const service = res.services?.[0];
    expect(service?.jobId).toBeTruthy();
    const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
    expect(status.status).toBe('failed');
    expect(JSON.stringify(status)).toContain('ARCHIVE_MAX_RATIO');
    const layer = await call(`${featureServer(bombName)}/0/query`, { token, where: '1=1' });
    expect(layer.status).toBeLessThan(500);
    expect(layer.json.features).toBeUndefined();
    expect(layer.json.error).toBeDefined();
  });
});
