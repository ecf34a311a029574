/**
 * hasStaticData: a layer published as static (and not editable) answers queries with an ETag the
 * client may keep; the same query with that ETag is a 304. Layers whose data may change do not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, stack } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

async function publishLibraries(extra: Record<string, unknown>): Promise<string> {
  const token = await adminToken();
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
  );
  const name = uniqueName('libraries_static');
  const { status } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
    ...analyzed.publishParameters,
    name,
    ...extra,
  });
  expect(status.status).toBe('completed');
  return name;
}

const query = async (name: string, where: string, headers: Record<string, string> = {}) =>
  fetch(
    `${stack().baseUrl}${featureServer(name)}/0/query?f=json&where=${encodeURIComponent(where)}&returnCountOnly=true&token=${await adminToken()}`,
    { headers },
  );

describe('hasStaticData', () => {
  let fixed: string;
  let changing: string;

  beforeAll(async () => {
    fixed = await publishLibraries({ hasStaticData: true });
    changing = await publishLibraries({ hasStaticData: false });
  }, 240_000);

  it('lets clients keep the answers of a static layer and revalidate them with a 304', async () => {
    const first = await query(fixed, '1=1');
    expect(await first.json()).toEqual({ count: 11 });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"q-[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
    const again = await query(fixed, '1=1', { 'If-None-Match': etag as string });
    expect(again.status).toBe(304);
    // Another query is another answer.
    const other = await query(fixed, "Name LIKE 'W%'");
    expect(other.headers.get('etag')).not.toBe(etag);
    expect(await other.json()).toEqual({ count: 2 });
  });

  it('gives no ETag where the data may change', async () => {
    const res = await query(changing, '1=1');
    expect(await res.json()).toEqual({ count: 11 });
    expect(res.headers.get('etag')).toBeNull();
  });
});
