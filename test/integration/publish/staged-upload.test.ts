/**
 * A publish's uploaded file is stored in MinIO while it arrives and the job adopts that object
 * (api/upload-routes.ts uploadStaging): whatever the order of the token and the file in the form, and
 * with itemIdToCreate (a job id derived from it, so the staged object is copied to it), the job's source
 * object holds exactly the bytes sent and the job publishes them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishSourceKey } from '../../../infra/object-keys.js';
import { createObjectStore, type ObjectStore } from '../../../infra/object-store.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { fixture, uniqueName, waitForJob } from './publish-client.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a publish upload staged in the object store', () => {
  let token: string;
  let store: ObjectStore;
  const csv = readFileSync(fixture('chicago-libraries.csv'));
  const owner = () => stack().admin.username;

  beforeAll(async () => {
    token = await signIn();
    const s = stack();
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
  });

  /** Posts the form with its fields in the given order ('file' marks where the file part goes). */
  async function publishForm(order: string[], extra: Record<string, string> = {}) {
    const name = uniqueName('staged');
    const fields: Record<string, string> = {
      f: 'json',
      token,
      filetype: 'csv',
      publishParameters: JSON.stringify({
        name,
        locationType: 'coordinates',
        layerInfo: { capabilities: 'Query' },
      }),
      ...extra,
    };
    const form = new FormData();
    for (const k of order) {
      if (k === 'file') form.append('file', new Blob([csv]), 'chicago-libraries.csv');
      else form.append(k, fields[k]!);
    }
    const res = await fetch(`${stack().baseUrl}/sharing/rest/content/users/${owner()}/publish`, {
      method: 'POST',
      body: form,
    });
    const body = (await res.json()) as Record<string, any>;
    const service = body.services?.[0];
    if (!service) throw new Error(`publish failed: ${JSON.stringify(body)}`);
    return { service, name };
  }

  async function expectPublished(service: Record<string, any>) {
    expect(sha(await store.getBuffer(publishSourceKey(service.jobId)))).toBe(sha(csv));
    const status = await waitForJob(token, owner(), service.serviceItemId, service.jobId);
    expect(status.status).toBe('completed');
    const count = await call(`${new URL(service.serviceurl).pathname}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    // The fixture's rows with coordinates, counted apart from the product (one row has none).
    const rows = csv
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .filter((line) =>
        line
          .split(',')
          .slice(-2)
          .every((v) => Number.isFinite(Number(v))),
      ).length;
    expect(count.json.count).toBe(rows);
  }

  it('token before the file: the job reads the staged object', async () => {
    const { service } = await publishForm(['f', 'token', 'filetype', 'publishParameters', 'file']);
    await expectPublished(service);
  });

  it('token after the file, as ArcGIS clients send it', async () => {
    const { service } = await publishForm(['file', 'f', 'filetype', 'publishParameters', 'token']);
    await expectPublished(service);
  });

  it('with itemIdToCreate the job id is derived, and the staged file is copied to it', async () => {
    const itemIdToCreate = randomBytes(16).toString('hex');
    const { service } = await publishForm(
      ['f', 'token', 'itemIdToCreate', 'filetype', 'publishParameters', 'file'],
      { itemIdToCreate },
    );
    expect(service.serviceItemId).toBe(itemIdToCreate);
    await expectPublished(service);
  });
});
