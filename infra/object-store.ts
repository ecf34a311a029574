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
  /**
   * An object written as its bytes arrive, of a length not known ahead (at most `maxBytes`): write the
   * chunks, then `end` stores the object whole; `abort` (or a failed write) leaves no object and no parts.
   */
  upload(key: string, options?: { contentType?: string; maxBytes?: number }): ObjectUpload;
  getBuffer(key: string): Promise<Buffer>;
  getStream(key: string): Promise<Readable>;
  /** The object's bytes from `offset` to its end (or `length` of them at most), as a stream. */
  getStreamFrom(key: string, offset: number, length?: number): Promise<Readable>;
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

/** An object being stored as it arrives (ObjectStore.upload). */
export interface ObjectUpload {
  /** Takes a chunk (copied into the part being filled); waits while four parts are in flight. */
  write(chunk: Buffer): Promise<void>;
  /** Sends what is left and makes the object appear whole. */
  end(): Promise<void>;
  /** Stops, sends nothing more and removes the parts sent; safe to call after a failure or twice. */
  abort(): Promise<void>;
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
  // Request bodies are sent as UNSIGNED-PAYLOAD (the signature covers the method, path, headers and
  // date), as the client already does over https: over http it hashed every body with SHA-256 on the
  // calling thread, 8 MB parts at a time (an upload's parts on the API's event loop, a tile build's
  // bundles on the worker's), and MinIO hashed it again to check. Reach MinIO over https where the
  // path to it crosses a network that is not trusted.
  client.enableSHA256 = false;
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
    upload: (key, options = {}) =>
      partedUpload(client, bucket, key, options.contentType ?? 'application/octet-stream', options.maxBytes),
    getBuffer: async (key) => toBuffer(await client.getObject(bucket, key)),
    getStream: (key) => client.getObject(bucket, key),
    getStreamFrom: (key, offset, length) => client.getPartialObject(bucket, key, offset, length),
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
 * Stores a large stream of a known size (see partedUpload): the object appears whole at the end or not
 * at all; a failed part, a stream error or a stream whose length is not `size` leaves no object and no
 * parts behind.
 */
async function putInParts(
  client: Client,
  bucket: string,
  key: string,
  body: Readable,
  size: number,
  contentType: string,
): Promise<void> {
  const upload = partedUpload(client, bucket, key, contentType, size);
  try {
    let total = 0;
    for await (const chunk of body as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += bytes.length;
      if (total > size) throw new Error(`the stream for ${key} is longer than its stated ${size} bytes`);
      await upload.write(bytes);
    }
    if (total !== size) {
      throw new Error(`the stream for ${key} ended at ${total} of its stated ${size} bytes`);
    }
    await upload.end();
  } catch (e) {
    body.destroy();
    await upload.abort();
    throw e;
  }
}

/**
 * Part buffers kept between parts and between uploads. A part is copied into one of these as its chunks
 * arrive, so the chunks (a socket's reads) die young. Holding the chunks themselves until their part was
 * sent kept each one through young collections into the old generation, where V8 counts its memory as
 * external growth: every 64 MB of it started a full collection of the API's heap (about 100 MB with the
 * Temporal worker), four to six during a 168 MB upload, each about 0.1 CPU-s of marking; joining the
 * chunks into a new buffer per part doubled that growth and faulted in fresh pages. A buffer is reused
 * once MinIO has answered its part. At most PARTS_AT_ONCE + 1 are kept, and none after an idle minute.
 */
const partBuffers: Buffer[] = [];
let partBuffersIdle: NodeJS.Timeout | undefined;
const PART_BUFFERS_IDLE_MS = 60_000;

function takePartBuffer(size: number): Buffer {
  if (size === PART_SIZE) {
    const kept = partBuffers.pop();
    if (kept) return kept;
  }
  return Buffer.allocUnsafeSlow(size);
}

function givePartBuffer(buffer: Buffer): void {
  if (buffer.length !== PART_SIZE || partBuffers.length > PARTS_AT_ONCE) return;
  partBuffers.push(buffer);
  clearTimeout(partBuffersIdle);
  partBuffersIdle = setTimeout(() => {
    partBuffers.length = 0;
  }, PART_BUFFERS_IDLE_MS);
  partBuffersIdle.unref();
}

/** How many part buffers are kept for the next parts (for tests). */
export const keptPartBuffers = (): number => partBuffers.length;

/**
 * An object sent as a multipart upload of 8 MB parts, up to four in flight, begun when the first part
 * is full (a shorter object is one plain PUT at the end). The client's own putObject sends 64 MB parts
 * one after the other, so reading, signing, sending and the server's writing never overlap; here they
 * do (about twice as fast on a local MinIO), and the bytes can be sent while they still arrive. Past
 * 10,000 × 8 MB (S3's part count) the parts grow so that `maxBytes` still fits.
 */
function partedUpload(
  client: Client,
  bucket: string,
  key: string,
  contentType: string,
  maxBytes = 0,
): ObjectUpload {
  const partSize = Math.max(PART_SIZE, Math.ceil(maxBytes / 10_000));
  /** The part being filled (`filled` bytes of it), taken at the first byte after the last part. */
  let part: Buffer | undefined;
  let filled = 0;
  let partNumber = 0;
  let uploadID: Promise<string> | undefined;
  const etags: { part: number; etag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed: unknown;
  let state: 'open' | 'ended' | 'aborted' = 'open';

  const send = (buffer: Buffer, length: number) => {
    const n = ++partNumber;
    uploadID ??= client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    const sent: Promise<void> = uploadID
      .then((id) =>
        client.uploadPart(
          { bucketName: bucket, objectName: key, uploadID: id, partNumber: n, headers: {} },
          length === buffer.length ? buffer : buffer.subarray(0, length),
        ),
      )
      .then((r) => {
        etags.push({ part: n, etag: r.etag });
        // Only once MinIO has answered: the request's socket is done with the bytes.
        givePartBuffer(buffer);
      })
      .catch((e) => {
        failed ??= e;
      })
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };
  const check = () => {
    if (failed) throw failed;
    if (state !== 'open') throw new Error(`the upload of ${key} was ${state}`);
  };

  return {
    async write(chunk) {
      check();
      let at = 0;
      while (at < chunk.length) {
        part ??= takePartBuffer(partSize);
        const n = chunk.copy(part, filled, at);
        filled += n;
        at += n;
        if (filled < partSize) continue;
        send(part, partSize);
        part = undefined;
        filled = 0;
        while (inFlight.size >= PARTS_AT_ONCE) await Promise.race(inFlight);
        check();
      }
    },
    async end() {
      check();
      state = 'ended';
      try {
        if (uploadID === undefined) {
          const whole = part ? part.subarray(0, filled) : Buffer.alloc(0);
          await client.putObject(bucket, key, whole, filled, { 'Content-Type': contentType });
          if (part) givePartBuffer(part);
          part = undefined;
          return;
        }
        if (part && filled > 0) send(part, filled);
        part = undefined;
        await Promise.all(inFlight);
        if (failed) throw failed;
        etags.sort((a, b) => a.part - b.part);
        await client.completeMultipartUpload(bucket, key, await uploadID, etags);
      } catch (e) {
        state = 'open';
        await this.abort();
        throw e;
      }
    },
    async abort() {
      if (state === 'aborted') return;
      state = 'aborted';
      await Promise.all(inFlight);
      // A part never sent goes back; a part whose request failed is dropped (its socket may still hold it).
      if (part) givePartBuffer(part);
      part = undefined;
      if (uploadID === undefined) return;
      const id = await uploadID.catch(() => undefined);
      if (id !== undefined) await client.abortMultipartUpload(bucket, key, id).catch(() => {});
    },
  };
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
