/**
 * f=json feature sets are written as they are rendered (api/services/feature-server.ts): the text must
 * be the one the whole rendering gives, which f=pjson still gives (parsed and written compactly here,
 * independently of the server's code), with the same headers, ETag included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

let name: string;
beforeAll(async () => {
  const token = await adminToken();
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
  );
  name = uniqueName('libraries_streamed');
  const { status } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
    ...analyzed.publishParameters,
    name,
    hasStaticData: true,
  });
  expect(status.status).toBe('completed');
}, 240_000);

const ask = async (params: Record<string, string>) => {
  const search = new URLSearchParams({ ...params, token: await adminToken() });
  const res = await fetch(`${stack().baseUrl}${featureServer(name)}/0/query?${search}`);
  return { res, text: await res.text() };
};

describe('streamed f=json feature sets', () => {
  const queries: Record<string, string>[] = [
    { where: '1=1', outFields: '*' },
    { where: '1=1', outFields: '*', outSR: '4326', geometryPrecision: '5' },
    { where: "Name LIKE 'W%'", outFields: 'Name', returnGeometry: 'false' },
    { where: '1=0', outFields: '*' },
    { where: '1=1', outFields: '*', resultRecordCount: '4', orderByFields: 'Name DESC' },
  ];

  it('writes what the whole rendering writes, for every query', async () => {
    for (const q of queries) {
      const streamed = await ask({ ...q, f: 'json' });
      const pretty = await ask({ ...q, f: 'pjson' });
      expect(streamed.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect({ q, text: streamed.text }).toEqual({ q, text: JSON.stringify(JSON.parse(pretty.text)) });
    }
    const all = JSON.parse((await ask({ ...queries[0], f: 'json' })).text);
    expect(all.features).toHaveLength(11);
    expect(JSON.parse((await ask({ ...queries[4], f: 'json' })).text).exceededTransferLimit).toBe(true);
  });

  it('keeps the ETag of a static layer and leaves JSONP whole', async () => {
    const streamed = await ask({ where: '1=1', outFields: '*', f: 'json' });
    expect(streamed.res.headers.get('etag')).toMatch(/^"q-/);
    const jsonp = await ask({ where: '1=1', outFields: '*', f: 'json', callback: 'cb' });
    expect(jsonp.text).toBe(`cb(${streamed.text});`);
  });
});
