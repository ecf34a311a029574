/**
 * Rows kept for review (persistErrorRecordsForReview) are read back through
 * content/users/{u}/items/{serviceItemId}/errorRecords, by the job's owner only, page by page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '../portal/portal-helpers.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { fixture, publishFile, uniqueName, upload } from './publish-client.js';

describe('the error records of a publish job', () => {
  let service: Record<string, any>;
  const path = () =>
    `/sharing/rest/content/users/${stack().admin.username}/items/${service.serviceItemId}/errorRecords`;

  beforeAll(async () => {
    const token = await adminToken();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'csv' },
      { name: 'chicago-libraries.csv', path: fixture('chicago-libraries.csv') },
    );
    ({ service } = await publishFile(token, 'chicago-libraries.csv', 'csv', {
      ...analyzed.publishParameters,
      name: uniqueName('libraries_review'),
      persistErrorRecordsForReview: true,
    }));
  }, 180_000);

  it('lists the rejected row with its reason and its values under the layer field names', async () => {
    const res = await call(path(), { token: await adminToken(), jobId: service.jobId }, { method: 'GET' });
    expect(res.json).toMatchObject({ jobId: service.jobId, layerId: 0, persisted: true, total: 1, start: 1 });
    expect(res.json.nextStart).toBe(-1);
    const [record] = res.json.errorRecords;
    expect(record.rowNumber).toBe(10);
    expect(record.reason).toMatch(/not-a-number/);
    expect(record.attributes).toMatchObject({ Name: 'Broken Coordinates Branch', Latitude: 'not-a-number' });
    expect(record.values[0]).toBe('Broken Coordinates Branch');
  });

  it('pages with start and num, and refuses bad paging values', async () => {
    const empty = await call(path(), { token: await adminToken(), start: '2', num: '5' }, { method: 'GET' });
    expect(empty.json).toMatchObject({ total: 1, start: 2, num: 0, nextStart: -1, errorRecords: [] });
    const bad = await call(path(), { token: await adminToken(), start: '0' }, { method: 'GET' });
    expect(bad.json.error.code).toBe(400);
    const layer = await call(path(), { token: await adminToken(), layer: '7' }, { method: 'GET' });
    expect(layer.json.error.details).toEqual(['The job has no layer 7.']);
  });

  it('answers only the owner and administrators', async () => {
    const other = await newUser();
    const res = await call(path(), { token: other.token }, { method: 'GET' });
    expect(res.json.error.code).toBe(403);
    const anonymous = await call(path(), {}, { method: 'GET' });
    expect(anonymous.json.error.code).toBe(499);
  });
});
