/**
 * The object store as a small publish reads it: the source object is fetched whole once, on first use,
 * and every read of it (the plan's sample, the load's stream from the data offset) is served from that
 * copy, so a small file costs one GET instead of two or more. Everything else goes to the store.
 */
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../infra/object-store.js';

export function readingSourceOnce(store: ObjectStore, sourceKey: string): ObjectStore {
  let bytes: Promise<Buffer> | undefined;
  const source = () => {
    bytes ??= store.getBuffer(sourceKey);
    return bytes;
  };
  const from = async (offset: number) => {
    const all = await source();
    return all.subarray(Math.min(offset, all.length));
  };
  return {
    bucket: store.bucket,
    ensureBucket: () => store.ensureBucket(),
    put: (key, body, size, contentType) => store.put(key, body, size, contentType),
    upload: (key, options) => store.upload(key, options),
    getBuffer: (key) => (key === sourceKey ? source() : store.getBuffer(key)),
    getStream: async (key) =>
      key === sourceKey ? Readable.from([await source()], { objectMode: false }) : store.getStream(key),
    getStreamFrom: async (key, offset, length) =>
      key === sourceKey
        ? Readable.from([(await from(offset)).subarray(0, length)], { objectMode: false })
        : store.getStreamFrom(key, offset, length),
    readUrl: (key) => store.readUrl(key),
    copy: (fromKey, toKey) => store.copy(fromKey, toKey),
    getRange: async (key, offset, length) =>
      key === sourceKey ? (await from(offset)).subarray(0, length) : store.getRange(key, offset, length),
    stat: (key) => store.stat(key),
    remove: (key) => store.remove(key),
    removePrefix: (prefix) => store.removePrefix(prefix),
    list: (prefix) => store.list(prefix),
  };
}
