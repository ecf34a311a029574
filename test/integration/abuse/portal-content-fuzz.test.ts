/**
 * Portal content under drawn requests, through the product's app on its own database and the stack's
 * real MinIO: addItem and updateItem with any mix of item properties (types, tags, extents, spatial
 * references, JSON properties, text data, URLs, categories), folders, groups and sharing, each with good
 * values and now and then a bad one (sharing, moving and deleting one item or a batch). Every request is answered or refused with a 4xx in the REST
 * envelope, and a reference item made first still answers, with its data, after each.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoServerError, fuzzRuns, fuzzSeed } from '../../unit/abuse/fuzz-support.js';
import { type InProcessApp, inProcessApp } from '../support/in-process-app.js';

const one = (...values: string[]) => fc.constantFrom(...values);
/** Left out two times in three; else a good value, or one time in six a bad one. */
const param = (good: string[], bad: string[] = []) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        { weight: 5, arbitrary: one(...good) },
        {
          weight: 1,
          arbitrary: fc.oneof(...(bad.length > 0 ? [one(...bad)] : []), fc.string({ maxLength: 20 })),
        },
      ),
    },
  );
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));

const itemFields = fc.record({
  title: fc.oneof(one('Roads', 'Ünïcode title', 'a'.repeat(300)), fc.string({ maxLength: 30 })),
  type: one(
    'Web Map',
    'Web Mapping Application',
    'Code Attachment',
    'CSV',
    'GeoJson',
    'Feature Service',
    'Map Service',
    'Shapefile',
    'Nonsense Type',
    '',
  ),
  tags: param(['a,b', 'roads', '', ' , ,x'], ['a'.repeat(500)]),
  typeKeywords: param(['Data,Map', 'Hosted Service'], ['x'.repeat(300)]),
  snippet: param(['Short summary', ''], ['s'.repeat(3000)]),
  description: param(['<b>bold</b>', '<script>alert(1)</script>', ''], ['d'.repeat(70_000)]),
  extent: param(
    ['-180,-90,180,90', '[[-180,-90],[180,90]]', ''],
    ['1,2,3', 'a,b,c,d', '1e400,0,1,1', '10,10,-10,-10'],
  ),
  spatialReference: param(['4326', '102100', 'GCS_WGS_1984'], ['{']),
  accessInformation: param(['Us']),
  licenseInfo: param(['CC-BY']),
  culture: param(['en-us', 'de'], ['xx-xxxx-xx']),
  properties: fc.option(json, { nil: undefined, freq: 3 }),
  text: fc.option(fc.oneof(json, fc.string({ maxLength: 50 })), { nil: undefined, freq: 3 }),
  url: param(
    ['https://example.com/service', 'http://127.0.0.1:9000/secret', ''],
    ['javascript:alert(1)', 'not a url'],
  ),
  categories: param(['/Categories/Water', ''], ['[', '["/Categories/A"']),
  access: param(['private', 'org', 'public'], ['everyone']),
  overwrite: param(['true', 'false'], ['x']),
  f: one('json', 'pjson', 'html'),
});

describe('portal content under drawn requests', () => {
  let app: InProcessApp;
  let token: string;
  let username: string;
  let reference: string;
  let groupId: string;
  let folderId: string;
  const content = () => `/sharing/rest/content/users/${username}`;

  beforeAll(async () => {
    app = await inProcessApp();
    const u = await app.user('org_admin');
    token = u.token;
    username = u.username;
    const added = await app.call(`${content()}/addItem`, {
      token,
      title: 'Reference',
      type: 'Web Map',
      text: '{"operationalLayers":[]}',
    });
    reference = added.json.id;
    expect(reference).toMatch(/^[0-9a-f]{32}$/);
    const group = await app.call('/sharing/rest/community/createGroup', {
      token,
      title: 'Fuzz group',
      access: 'org',
    });
    groupId = group.json.group.id;
    const folder = await app.call(`${content()}/createFolder`, { token, title: 'Fuzz folder' });
    folderId = folder.json.folder.id;
  }, 180_000);
  afterAll(async () => app?.close());

  it('answers every drawn content request or refuses it with a 4xx; the reference item still answers', async () => {
    const request = fc.oneof(
      itemFields.map((p) => ({ path: () => `${content()}/addItem`, params: p })),
      itemFields.map((p) => ({
        path: () => `${content()}/items/${reference}/update`,
        params: { ...p, type: undefined },
      })),
      fc
        .record({
          title: fc.oneof(one('Folder', '', '..', '/etc', 'a/b'), fc.string({ maxLength: 20 })),
          f: one('json'),
        })
        .map((p) => ({ path: () => `${content()}/createFolder`, params: p })),
      fc
        .record({
          title: fc.oneof(one('Group', ''), fc.string({ maxLength: 20 })),
          access: param(['private', 'org', 'public'], ['x']),
          tags: param(['a,b']),
          isViewOnly: param(['true', 'false'], ['x']),
          sortField: param(['title', 'modified'], ['nosuch']),
          f: one('json'),
        })
        .map((p) => ({ path: () => `/sharing/rest/community/groups/${groupId}/update`, params: p })),
      fc
        .record({
          everyone: param(['true', 'false'], ['x']),
          org: param(['true', 'false']),
          groups: fc.oneof(one('', 'nosuchgroup', '0'.repeat(32)), fc.constant('GROUP')),
          f: one('json'),
        })
        .chain((p) =>
          fc.oneof(
            one('share', 'unshare').map((op) => ({
              path: () => `${content()}/items/${reference}/${op}`,
              params: p,
            })),
            fc
              .tuple(
                one('shareItems', 'unshareItems'),
                one('REF', `REF,${'0'.repeat(32)}`, '', 'x,,y', 'REF,REF'),
              )
              .map(([op, items]) => ({ path: () => `${content()}/${op}`, params: { ...p, items } })),
          ),
        ),
      fc
        .record({
          items: one('REF', `REF,${'0'.repeat(32)}`, '', 'x,,y'),
          folder: fc.oneof(one('/', '', 'FOLDER', 'Folder', 'f'.repeat(32)), fc.string({ maxLength: 10 })),
          f: one('json'),
        })
        .chain((p) =>
          fc.oneof(
            fc.constant({ path: () => `${content()}/moveItems`, params: p }),
            fc.constant({
              path: () => `${content()}/items/${reference}/move`,
              params: { ...p, items: undefined },
            }),
            // Never the reference item: it must stay for the checks after each request.
            one('', `${'0'.repeat(32)},x`).map((items) => ({
              path: () => `${content()}/deleteItems`,
              params: { items },
            })),
          ),
        ),
    );
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ path, params }) => {
        tried++;
        const form = Object.fromEntries(
          Object.entries(params)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [
              k,
              v === 'GROUP' ? groupId : v === 'FOLDER' ? folderId : v?.replaceAll('REF', reference),
            ]),
        ) as Record<string, string>;
        const res = await app.call(path(), { token, ...form });
        const context = `${path()} ${JSON.stringify(form).slice(0, 1500)} -> ${res.text.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        expectNoServerError(res.json.error, context);
        const item = await app.call(`/sharing/rest/content/items/${reference}`, { token });
        expect(item.json.id, `${context} -> then the reference item: ${item.text.slice(0, 300)}`).toBe(
          reference,
        );
        const data = await app.call(`/sharing/rest/content/items/${reference}/data`, { token }, 'GET');
        expect(data.status, `${context} -> then its data: ${data.text.slice(0, 300)}`).toBe(200);
      }),
      { numRuns: fuzzRuns(40), seed: fuzzSeed() },
    );
    console.log(`[fuzz] portal content: ${tried} inputs tried`);
  }, 600_000);
});
