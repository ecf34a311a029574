/**
 * Publishing takes the publisher privileges (a plain org_user may add items, not publish or analyze),
 * and item ids are one id whatever their case: a client cannot make two services share tables.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMultipart, fixtureBytes, newUser, type TestUser } from '../portal/portal-helpers.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, fixture, uniqueName, upload, waitForJob } from './publish-client.js';

const parameters = (name: string) => ({
  name,
  locationType: 'coordinates',
  layerInfo: { capabilities: 'Query' },
});
const csv = () => ({ name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') });
const GWM_0003 = 'You do not have permissions to access this resource or perform this operation.';

describe('publishing needs the publisher privileges', () => {
  let plain: TestUser;
  let publisher: TestUser;
  beforeAll(async () => {
    [plain, publisher] = [await newUser('org_user'), await newUser('org_publisher')];
  });

  it('lets a plain user add an item', async () => {
    const res = await callMultipart(
      `/sharing/rest/content/users/${plain.username}/addItem`,
      {
        token: plain.token,
        type: 'CSV',
        title: 'libraries',
      },
      { name: 'libraries.csv', bytes: fixtureBytes('places.csv') },
    );
    expect(res.json.success).toBe(true);
  });

  it.each([
    ['a feature service', { filetype: 'csv' }],
    ['an overwrite', { filetype: 'csv', overwrite: 'true', itemid: '0'.repeat(32) }],
    ['a tile package', { filetype: 'tilePackage' }],
    ['a vector tile package', { filetype: 'vectorTilePackage' }],
    ['tiles from a feature service', { filetype: 'featureService', itemid: '0'.repeat(32) }],
  ])('refuses %s from a plain user with 403 as ArcGIS says it', async (_what, fields) => {
    const res = await upload(
      `/sharing/rest/content/users/${plain.username}/publish`,
      { token: plain.token, publishParameters: JSON.stringify(parameters(uniqueName('plain'))), ...fields },
      csv(),
    );
    expect(res.error.code).toBe(403);
    expect(res.error.message).toBe(GWM_0003);
    expect(res.error.details[0]).toMatch(/portal:publisher:publish(Features|Tiles|VectorTiles)/);
  });

  it('refuses analyze from a plain user and answers it for a publisher', async () => {
    const refused = await upload(
      '/sharing/rest/content/features/analyze',
      { token: plain.token, filetype: 'csv' },
      csv(),
    );
    expect(refused.error).toMatchObject({ code: 403, message: GWM_0003 });
    expect(refused.error.details).toEqual([
      'This operation needs the privilege portal:publisher:publishFeatures.',
    ]);
    const answered = await upload(
      '/sharing/rest/content/features/analyze',
      { token: publisher.token, filetype: 'csv' },
      csv(),
    );
    expect(answered.publishParameters.locationType).toBe('coordinates');
  });

  it('lets a publisher publish a feature service', async () => {
    const name = uniqueName('bypublisher');
    const res = await upload(
      `/sharing/rest/content/users/${publisher.username}/publish`,
      { token: publisher.token, filetype: 'csv', publishParameters: JSON.stringify(parameters(name)) },
      csv(),
    );
    const status = await waitForJob(
      publisher.token,
      publisher.username,
      res.services[0].serviceItemId,
      res.services[0].jobId,
    );
    expect(status.status).toBe('completed');
  });
});

describe('item ids compared case-insensitively', () => {
  let token: string;
  let publisher: TestUser;
  let sql: postgres.Sql;
  beforeAll(async () => {
    token = await signIn();
    publisher = await newUser('org_publisher');
    sql = postgres(stack().databaseUrl, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => sql?.end());

  const publishAs = (
    name: string,
    itemIdToCreate: string,
    as = { username: stack().admin.username, token },
  ) =>
    upload(
      `/sharing/rest/content/users/${as.username}/publish`,
      {
        token: as.token,
        filetype: 'csv',
        publishParameters: JSON.stringify(parameters(name)),
        itemIdToCreate,
      },
      csv(),
    );

  it('keeps an upper-case itemIdToCreate as one lower-case id, found in either case', async () => {
    const id = `C${Date.now().toString(16)}`.padEnd(32, 'D');
    const name = uniqueName('upper');
    const res = await publishAs(name, id);
    expect(res.services[0].serviceItemId).toBe(id.toLowerCase());
    const status = await waitForJob(token, stack().admin.username, id, res.services[0].jobId);
    expect(status.status).toBe('completed');
    const item = await call(`/sharing/rest/content/items/${id}`, { token }, { method: 'GET' });
    expect(item.json.id).toBe(id.toLowerCase());
    const tables =
      await sql`select table_name from information_schema.tables where table_name like ${`f_${id.toLowerCase()}_%`}`;
    expect(tables.map((t) => t.table_name)).toEqual([`f_${id.toLowerCase()}_0`]);
  });

  it('refuses another owner a service whose itemIdToCreate differs only in case, leaving the first one whole', async () => {
    const id = `a${Date.now().toString(16)}`.padEnd(32, 'b');
    const first = uniqueName('first');
    const res = await publishAs(first, id);
    expect((await waitForJob(token, stack().admin.username, id, res.services[0].jobId)).status).toBe(
      'completed',
    );
    // (The same owner repeating the id in any case is the same request and gets the same job back.)
    const second = await publishAs(uniqueName('second'), id.toUpperCase(), publisher);
    expect(second.error).toMatchObject({ code: 400, messageCode: 'CONT_0093' });
    expect(second.error.details).toEqual([`An item with id ${id} already exists.`]);
    const count = await call(`${featureServer(first)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(count.json.count).toBe(11);
  });
});
