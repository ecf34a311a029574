/**
 * Objects a killed process leaves in the bucket (api/object-sweep.ts): `publish/{id}/` of no job,
 * `analyze/{id}/` and `items/{id}/` of no item, removed once their newest object is an hour old. Against the real MinIO and PostgreSQL,
 * in a bucket of this test's own (a sweep of the shared bucket with a clock moved ahead would take other
 * tests' uploads in flight). The clock is passed in: `now` an hour and more after the objects were written.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOrphanObjects, STALE_OBJECT_MS } from '../../../api/object-sweep.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { insertItem } from '../../../db/repositories/items.js';
import { insertJob } from '../../../db/repositories/jobs.js';
import { items } from '../../../db/schema/items.js';
import { publishJobs } from '../../../db/schema/publishing.js';
import { createObjectStore, type ObjectStore } from '../../../infra/object-store.js';
import { minioClient } from '../support/minio-client.js';
import { stack } from '../support/portal-client.js';

describe('sweeping objects nothing will remove', () => {
  let store: ObjectStore;
  let database: DatabaseHandle;
  const jobId = randomUUID();
  const orphan = randomUUID();
  const analysis = randomUUID();
  const itemId = randomUUID().replaceAll('-', '');
  const lostItem = randomUUID().replaceAll('-', '');

  beforeAll(async () => {
    const s = stack();
    const bucket = `sweep-${randomUUID().slice(0, 8)}`;
    store = createObjectStore({ ...s.minio, bucket, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
    await store.ensureBucket();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    const now = Date.now();
    await insertJob(database.db, {
      id: jobId,
      serviceItemId: randomUUID().replaceAll('-', ''),
      owner: s.admin.username,
      fileType: 'csv',
      workflowId: `publish-${jobId}`,
      status: 'completed',
      request: { sourceKey: `publish/${jobId}/source` } as never,
      created: now,
      modified: now,
    });
    await insertItem(database.db, {
      id: itemId,
      owner: s.admin.username,
      title: 'swept around',
      type: 'CSV',
      created: now,
      modified: now,
    });
  });

  afterAll(async () => {
    if (store) {
      await store.removePrefix('');
      await minioClient().removeBucket(store.bucket);
    }
    await database?.db.delete(publishJobs).where(eq(publishJobs.id, jobId));
    await database?.db.delete(items).where(eq(items.id, itemId));
    await database?.close();
  });

  const keys = async () => (await store.list('')).sort();
  const writtenAt = async (key: string) => (await store.stat(key))?.lastModified.getTime() ?? 0;

  it('removes a job-less publish prefix and an analyze prefix once an hour old, and nothing else', async () => {
    await store.put(`publish/${jobId}/source`, 'the job keeps this');
    await store.put(`publish/${orphan}/source`, 'staged, its job never written');
    await store.put(`publish/${orphan}/part`, 'another object of the same prefix');
    await store.put(`analyze/${analysis}/source`, 'an analyze call that never answered');
    await store.put('publish/loose', 'right under the root: nobody’s prefix');
    const before = await keys();
    // Written just now: nothing is old enough.
    expect(await removeOrphanObjects(store, database.db)).toEqual({ publish: 0, analyze: 0, items: 0 });
    expect(await keys()).toEqual(before);
    // An hour later: the orphan and the analyze call's objects go; the job's and the loose object stay.
    const later = (await writtenAt(`publish/${orphan}/part`)) + STALE_OBJECT_MS + 1_000;
    // Analyze objects kept longer when the parse timeout allows a longer call.
    const longAnalyze = { now: later, analyzeStaleMs: 3 * STALE_OBJECT_MS };
    expect(await removeOrphanObjects(store, database.db, longAnalyze)).toEqual({
      publish: 1,
      analyze: 0,
      items: 0,
    });
    expect(await removeOrphanObjects(store, database.db, { now: later })).toEqual({
      publish: 0,
      analyze: 1,
      items: 0,
    });
    expect(await keys()).toEqual([`publish/${jobId}/source`, 'publish/loose']);
  });

  it('keeps a prefix while its newest object is younger than an hour', async () => {
    const id = randomUUID();
    await store.put(`publish/${id}/source`, 'old');
    // MinIO stamps objects to the second: the second object is written in a later second.
    await new Promise((r) => setTimeout(r, 1_100));
    await store.put(`publish/${id}/spool`, 'newer');
    const oldest = await writtenAt(`publish/${id}/source`);
    const newest = await writtenAt(`publish/${id}/spool`);
    expect(newest).toBeGreaterThan(oldest);
    const between = { now: oldest + STALE_OBJECT_MS + 100 };
    expect(await removeOrphanObjects(store, database.db, between)).toEqual({
      publish: 0,
      analyze: 0,
      items: 0,
    });
    expect((await keys()).filter((k) => k.startsWith(`publish/${id}/`))).toHaveLength(2);
    const after = { now: newest + STALE_OBJECT_MS };
    expect(await removeOrphanObjects(store, database.db, after)).toEqual({
      publish: 1,
      analyze: 0,
      items: 0,
    });
    expect((await keys()).filter((k) => k.startsWith(`publish/${id}/`))).toEqual([]);
  });

  it("removes an item prefix of no item (a file staged for an addItem that never wrote its row), not an item's", async () => {
    await store.put(`items/${itemId}/data`, 'the item keeps this');
    await store.put(`items/${itemId}/info/thumbnail.png`, 'and this');
    await store.put(`items/${lostItem}/data`, 'staged while it arrived, the item never written');
    const written = await writtenAt(`items/${lostItem}/data`);
    expect(await removeOrphanObjects(store, database.db, { now: written + 1_000 })).toMatchObject({
      items: 0,
    });
    expect((await keys()).filter((k) => k.startsWith('items/'))).toHaveLength(3);
    const later = { now: written + STALE_OBJECT_MS + 1_000 };
    expect(await removeOrphanObjects(store, database.db, later)).toMatchObject({ items: 1 });
    expect((await keys()).filter((k) => k.startsWith('items/'))).toEqual([
      `items/${itemId}/data`,
      `items/${itemId}/info/thumbnail.png`,
    ]);
  });
});
