/**
 * Object storage, only through the `minio` client, which stays inside this module: callers see the
 * operations below and nothing of the client or its bucket calls. Keys are deterministic (derived from ids and content
 * hashes) so that a retried activity overwrites what an interrupted one wrote instead of adding to it.
 */
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { Config } from './config.js';

export interface ObjectStore {
  readonly bucket: string;
  /** Creates the bucket when it is missing; safe to call from several processes at once. */
  ensureBucket(): Promise<void>;
  put(key: string, body: Buffer | Readable | string, size?: number, contentType?: string): Promise<void>;
  getBuffer(key: string): Promise<Buffer>;
  getStream(key: string): Promise<Readable>;
  /** The object's bytes from `offset` to its end, as a stream. */
  getStreamFrom(key: string, offset: number): Promise<Readable>;
  /**
   * A URL that reads the object without this client (an S3 presigned GET, valid for an hour; it honours
   * a Range header): for a thread that streams an object itself, so its bytes never pass this thread.
   */
  readUrl(key: string): Promise<string>;
  /** A server-side copy of `fromKey` to `toKey` (the bytes do not pass through this process). */
  copy(fromKey: string, toKey: string): Promise<void>;
  getRange(key: string, offset: number, length: number): Promise<Buffer>;
  stat(key: string): Promise<{ size: number; etag: string; lastModified: Date } | undefined>;
  remove(key: string): Promise<void>;
  removePrefix(prefix: string): Promise<number>;
  list(prefix: string): Promise<string[]>;
}

export function createObjectStore(config: Config['minio']): ObjectStore {
  const url = config.endpoint;
  const useSSL = url.protocol === 'https:';
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: 'us-east-1',
  });
  const bucket = config.bucket;

  const toBuffer = async (stream: Readable): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const chunk of stream) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  };

  return {
    bucket,
    async ensureBucket() {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, 'us-east-1');
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw e;
      }
    },
    async put(key, body, size, contentType = 'application/octet-stream') {
      if (typeof body === 'object' && !Buffer.isBuffer(body) && size !== undefined && size >= PARTED_FROM) {
        await putInParts(client, bucket, key, body, size, contentType);
        return;
      }
      await client.putObject(bucket, key, body, size, { 'Content-Type': contentType });
    },
    getBuffer: async (key) => toBuffer(await client.getObject(bucket, key)),
    getStream: (key) => client.getObject(bucket, key),
    getStreamFrom: (key, offset) => client.getPartialObject(bucket, key, offset),
    readUrl: (key) => client.presignedGetObject(bucket, key, 60 * 60),
    async copy(fromKey, toKey) {
      await client.copyObject(bucket, toKey, `/${bucket}/${fromKey}`);
    },
    getRange: async (key, offset, length) =>
      toBuffer(await client.getPartialObject(bucket, key, offset, length)),
    async stat(key) {
      try {
        const s = await client.statObject(bucket, key);
        return { size: s.size, etag: s.etag, lastModified: s.lastModified };
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async remove(key) {
      await client.removeObject(bucket, key);
    },
    async removePrefix(prefix) {
      const keys = await listKeys(client, bucket, prefix);
      for (let i = 0; i < keys.length; i += 1000) await client.removeObjects(bucket, keys.slice(i, i + 1000));
      return keys.length;
    },
    list: (prefix) => listKeys(client, bucket, prefix),
  };
}

/** A stream of this size or more is stored as a multipart upload whose parts are sent several at once. */
export const PARTED_FROM = 16 * 1024 * 1024;
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

/**
 * Stores a large stream as a multipart upload of 8 MB parts, up to four in flight. The client's own
 * putObject sends 64 MB parts one after the other, so reading, signing, sending and the server's writing
 * never overlap; here they do (about twice as fast on a local MinIO). The object appears whole at the
 * completing request or not at all: a failed part, a stream error or a stream whose length is not `size`
 * aborts the upload and leaves no object and no parts behind.
 */
async function putInParts(
  client: Client,
  bucket: string,
  key: string,
  body: Readable,
  size: number,
  contentType: string,
): Promise<void> {
  const uploadID = await client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
  const etags: { part: number; etag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  const send = (partNumber: number, part: Buffer) => {
    const sent: Promise<void> = client
      .uploadPart({ bucketName: bucket, objectName: key, uploadID, partNumber, headers: {} }, part)
      .then((r) => {
        etags.push({ part: partNumber, etag: r.etag });
      })
      .catch((e) => {
        failed ??= e;
      })
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };
  try {
    let partNumber = 0;
    let total = 0;
    // S3 allows 10,000 parts: past 10,000 × 8 MB the parts grow so that the object still fits.
    const partSize = Math.max(PART_SIZE, Math.ceil(size / 10_000));
    for await (const part of fixedParts(body, partSize)) {
      total += part.length;
      if (total > size) throw new Error(`the stream for ${key} is longer than its stated ${size} bytes`);
      send(++partNumber, part);
      while (inFlight.size >= PARTS_AT_ONCE) await Promise.race(inFlight);
      if (failed) throw failed;
    }
    await Promise.all(inFlight);
    if (failed) throw failed;
    if (total !== size) {
      throw new Error(`the stream for ${key} ended at ${total} of its stated ${size} bytes`);
    }
    etags.sort((a, b) => a.part - b.part);
    await client.completeMultipartUpload(bucket, key, uploadID, etags);
  } catch (e) {
    body.destroy();
    await Promise.all(inFlight);
    await client.abortMultipartUpload(bucket, key, uploadID).catch(() => {});
    throw e;
  }
}

/** The stream's bytes in buffers of exactly `size` bytes, the last one shorter. */
async function* fixedParts(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let part = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (bytes.length > 0) {
      const n = Math.min(bytes.length, size - filled);
      bytes.copy(part, filled, 0, n);
      filled += n;
      bytes = bytes.subarray(n);
      if (filled === size) {
        yield part;
        part = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled);
}

function isNotFound(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
}

async function listKeys(client: Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const obj of client.listObjectsV2(bucket, prefix, true)) {
    if (obj.name) keys.push(obj.name);
  }
  return keys;
}
