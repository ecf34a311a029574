/**
 * Large streams are stored as multipart uploads with several parts in flight (infra/object-store.ts). Checked
 * against the real MinIO: the bytes read back are the bytes sent, and a stream that fails or whose length
 * is not the stated size leaves no object and no unfinished upload behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from 'minio';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createObjectStore,
  keptPartBuffers,
  type ObjectStore,
  PARTED_FROM,
} from '../../../infra/object-store.js';
import { minioClient } from '../support/minio-client.js';
import { stack } from '../support/portal-client.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** `bytes` as a stream of uneven chunks, so parts are cut across chunk boundaries. */
function chunked(bytes: Buffer, failAt?: number): Readable {
  let at = 0;
  let i = 0;
  return new Readable({
    read() {
      if (failAt !== undefined && at >= failAt) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      const n = [65_536, 1_000_003, 7, 3_333_333][i++ % 4]!;
      this.push(bytes.subarray(at, at + n));
      at += n;
    },
  });
}

describe('storing a large stream in parts', () => {
  let store: ObjectStore;
  let client: Client;
  const prefix = `parts-test-${randomBytes(6).toString('hex')}/`;

  beforeAll(() => {
    const s = stack();
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 });
    client = minioClient();
  });

  const unfinished = async (key: string) => {
    const uploads: unknown[] = [];
    for await (const u of client.listIncompleteUploads(store.bucket, key, true)) uploads.push(u);
    return uploads.length;
  };

  it('reads back exactly the bytes sent, in several parts with a short last one', async () => {
    const bytes = randomBytes(PARTED_FROM + 9 * 1024 * 1024 + 12_345);
    const key = `${prefix}whole`;
    await store.put(key, chunked(bytes), bytes.length, 'text/csv');
    const back = await store.getBuffer(key);
    expect(back.length).toBe(bytes.length);
    expect(sha(back)).toBe(sha(bytes));
    // A multipart object's ETag names its part count: 16 MB + 9 MB + a little in 8 MB parts is 4 parts.
    expect((await store.stat(key))?.etag).toMatch(/-4$/);
    expect((await client.statObject(store.bucket, key)).metaData['content-type']).toBe('text/csv');
    // A ranged read across a part boundary.
    const off = 8 * 1024 * 1024 - 100;
    expect(sha(await store.getRange(key, off, 300))).toBe(sha(bytes.subarray(off, off + 300)));
  });

  it('reads back exactly the bytes sent in more parts than it sends at once', async () => {
    // Eleven 8 MB parts and a short one, four in flight at most: each part holds its own bytes.
    const bytes = randomBytes(11 * 8 * 1024 * 1024 + 777);
    const key = `${prefix}many`;
    await store.put(key, chunked(bytes), bytes.length, 'application/octet-stream');
    expect((await store.stat(key))?.etag).toMatch(/-12$/);
    const back = await store.getBuffer(key);
    expect(back.length).toBe(bytes.length);
    for (let part = 0; part < 12; part++) {
      const from = part * 8 * 1024 * 1024;
      expect(sha(back.subarray(from, from + 8 * 1024 * 1024))).toBe(
        sha(bytes.subarray(from, from + 8 * 1024 * 1024)),
      );
    }
    // And written as it arrives (ObjectStore.upload), in chunks of every size.
    const upload = store.upload(`${prefix}many-written`);
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const n = [1, 8 * 1024 * 1024 + 3, 65_536, 5_000_001][i % 4]!;
      await upload.write(bytes.subarray(at, at + n));
      at += n;
    }
    await upload.end();
    expect(sha(await store.getBuffer(`${prefix}many-written`))).toBe(sha(bytes));
  });

  it('overwrites an object of the same key whole', async () => {
    const key = `${prefix}again`;
    const first = randomBytes(PARTED_FROM + 1);
    const second = randomBytes(PARTED_FROM + 5 * 1024 * 1024);
    await store.put(key, chunked(first), first.length);
    await store.put(key, chunked(second), second.length);
    expect(sha(await store.getBuffer(key))).toBe(sha(second));
  });

  it('leaves nothing when the stream fails midway, and keeps an earlier object of that key', async () => {
    const key = `${prefix}failed`;
    const earlier = Buffer.from('kept');
    await store.put(key, earlier, earlier.length);
    const bytes = randomBytes(PARTED_FROM + 20 * 1024 * 1024);
    await expect(store.put(key, chunked(bytes, 20 * 1024 * 1024), bytes.length)).rejects.toThrow(
      'the client went away',
    );
    expect((await store.getBuffer(key)).toString()).toBe('kept');
    expect(await unfinished(key)).toBe(0);
  });

  it('refuses a stream shorter or longer than its stated size and leaves no object', async () => {
    const bytes = randomBytes(PARTED_FROM + 3 * 1024 * 1024);
    const short = `${prefix}short`;
    await expect(store.put(short, chunked(bytes), bytes.length + 1)).rejects.toThrow(
      `ended at ${bytes.length} of its stated ${bytes.length + 1} bytes`,
    );
    expect(await store.stat(short)).toBeUndefined();
    expect(await unfinished(short)).toBe(0);
    const long = `${prefix}long`;
    await expect(store.put(long, chunked(bytes), bytes.length - 1)).rejects.toThrow(
      `longer than its stated ${bytes.length - 1} bytes`,
    );
    expect(await store.stat(long)).toBeUndefined();
    expect(await unfinished(long)).toBe(0);
  });

  it('stores an object of unknown length as it is written: one PUT when short, parts when long', async () => {
    const short = randomBytes(3 * 1024 * 1024 + 17);
    const shortKey = `${prefix}written-short`;
    const a = store.upload(shortKey, { contentType: 'text/csv' });
    for (let at = 0; at < short.length; at += 1_000_003) await a.write(short.subarray(at, at + 1_000_003));
    await a.end();
    expect(sha(await store.getBuffer(shortKey))).toBe(sha(short));
    // A plain object's ETag is its MD5, with no part count.
    expect((await store.stat(shortKey))?.etag).toBe(createHash('md5').update(short).digest('hex'));
    expect((await client.statObject(store.bucket, shortKey)).metaData['content-type']).toBe('text/csv');

    const long = randomBytes(3 * 8 * 1024 * 1024 + 5);
    const longKey = `${prefix}written-long`;
    const b = store.upload(longKey);
    for await (const chunk of chunked(long)) await b.write(chunk as Buffer);
    await b.end();
    expect(sha(await store.getBuffer(longKey))).toBe(sha(long));
    expect((await store.stat(longKey))?.etag).toMatch(/-4$/);
    expect(await unfinished(longKey)).toBe(0);
  });

  it("reuses its part buffers without carrying one object's bytes into the next", async () => {
    const first = randomBytes(3 * 8 * 1024 * 1024 + 99);
    const a = store.upload(`${prefix}reuse-first`);
    for await (const chunk of chunked(first)) await a.write(chunk as Buffer);
    await a.end();
    // The parts MinIO answered are kept for the next parts (at most five).
    expect(keptPartBuffers()).toBeGreaterThanOrEqual(1);
    expect(keptPartBuffers()).toBeLessThanOrEqual(5);
    // A short object in a reused buffer, then one of a full part and a short one: only their own bytes.
    const short = Buffer.alloc(3 * 1024 * 1024 + 1, 0x5a);
    const b = store.upload(`${prefix}reuse-short`);
    await b.write(short);
    await b.end();
    expect(sha(await store.getBuffer(`${prefix}reuse-short`))).toBe(sha(short));
    const two = Buffer.alloc(8 * 1024 * 1024 + 10, 0x33);
    const c = store.upload(`${prefix}reuse-two`);
    for (let at = 0; at < two.length; at += 65_536) await c.write(two.subarray(at, at + 65_536));
    await c.end();
    const back = await store.getBuffer(`${prefix}reuse-two`);
    expect(back.length).toBe(two.length);
    expect(sha(back)).toBe(sha(two));
    expect((await store.stat(`${prefix}reuse-two`))?.etag).toMatch(/-2$/);
    // A caller may reuse its chunk once write has answered: the part holds a copy.
    const reused = Buffer.alloc(1024 * 1024);
    const d = store.upload(`${prefix}reuse-caller`);
    const expected: Buffer[] = [];
    for (let i = 0; i < 20; i++) {
      reused.fill(i);
      expected.push(Buffer.from(reused));
      await d.write(reused);
    }
    await d.end();
    expect(sha(await store.getBuffer(`${prefix}reuse-caller`))).toBe(sha(Buffer.concat(expected)));
  });

  it('an aborted written object leaves no object and no parts, and refuses further writes', async () => {
    const key = `${prefix}written-aborted`;
    const upload = store.upload(key);
    await upload.write(randomBytes(20 * 1024 * 1024));
    await upload.abort();
    await expect(upload.write(Buffer.from('more'))).rejects.toThrow('was aborted');
    expect(await store.stat(key)).toBeUndefined();
    expect(await unfinished(key)).toBe(0);
  });
});
