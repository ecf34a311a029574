/**
 * The tile reader against a bundle rewritten after it read the index (an edit refresh compacting it):
 * each tile read takes the tile's size prefix along in the same range request, and a prefix that does
 * not match the held index makes the reader fetch the index once more instead of serving wrong bytes.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../../../infra/object-store.js';
import { bundleKey, createTileCacheReader } from '../../../../infra/tile-cache-store.js';
import { updateBundle } from '../../../../lib/tiles/bundle-append.js';
import { BundleBuilder, tileIndexInBundle } from '../../../../lib/tiles/compact-bundle.js';

function memoryStore() {
  const objects = new Map<string, Uint8Array>();
  const ranges: { offset: number; length: number }[] = [];
  const missing = () => Object.assign(new Error('missing'), { code: 'NoSuchKey' });
  const store = {
    async getRange(key: string, offset: number, length: number) {
      ranges.push({ offset, length });
      const o = objects.get(key);
      if (!o) throw missing();
      if (offset >= o.length) throw Object.assign(new Error('range'), { code: 'InvalidRange' });
      return Buffer.from(o.subarray(offset, offset + length));
    },
    async getStreamFrom(key: string, offset: number, length: number) {
      ranges.push({ offset, length });
      const o = objects.get(key);
      if (!o) throw missing();
      return Readable.from([Buffer.from(o.subarray(offset, offset + length))]);
    },
  } as unknown as ObjectStore;
  return { store, objects, ranges };
}

const tileOf = (fill: number, size: number) => new Uint8Array(size).fill(fill);
const at = { serviceItemId: 'svc', generation: 1, storage: 'compactV2' as const };
const key = bundleKey('svc', 3, 0, 0);
const a = { level: 3, row: 0, col: 0 };
const b = { level: 3, row: 0, col: 1 };
const c = { level: 3, row: 0, col: 2 };

/** Tile a is replaced by a smaller one and the bundle compacted: b and c move to lower offsets. */
function compactedAfterEdit(original: Uint8Array): Uint8Array {
  const policy = { maxDeadShare: 0, minDeadBytes: 0 };
  const result = updateBundle(original, new Map([[tileIndexInBundle(0, 0), tileOf(9, 100)]]), policy);
  expect(result.compacted).toBe(true);
  return result.bytes;
}

describe('reading tiles of a bundle rewritten under a held index', () => {
  const original = new BundleBuilder()
    .add(0, 0, tileOf(1, 3000))
    .add(0, 1, tileOf(2, 2000))
    .add(0, 2, tileOf(3, 2000))
    .toBytes();

  it('reads a tile with its size prefix in a single range request', async () => {
    const { store, objects, ranges } = memoryStore();
    objects.set(key, original);
    const reader = createTileCacheReader(store, { readAheadBytes: 0 });
    expect(await reader.readTile(at, b)).toEqual(tileOf(2, 2000));
    expect(ranges).toHaveLength(2);
    expect(ranges[1].length).toBe(4 + 2000);
  });

  it('serves the right bytes of a moved tile and reads the index again, once', async () => {
    const { store, objects } = memoryStore();
    objects.set(key, original);
    const reader = createTileCacheReader(store, { maxTileBytes: 0 });
    expect(await reader.readTile(at, a)).toEqual(tileOf(1, 3000));
    expect(reader.indexFetches).toBe(1);
    objects.set(key, compactedAfterEdit(original));
    expect(await reader.readTile(at, b)).toEqual(tileOf(2, 2000));
    expect(reader.indexFetches).toBe(2);
    expect(await reader.readTile(at, c)).toEqual(tileOf(3, 2000));
    expect(await reader.readTile(at, a)).toEqual(tileOf(9, 100));
    expect(reader.indexFetches).toBe(2);
  });

  it('reads the index again when a tile would lie past the end of the shrunken object', async () => {
    const { store, objects } = memoryStore();
    const long = new BundleBuilder().add(0, 0, tileOf(1, 50_000)).add(0, 1, tileOf(2, 10)).toBytes();
    objects.set(key, long);
    const reader = createTileCacheReader(store, { maxTileBytes: 0 });
    expect(await reader.readTile(at, a)).toEqual(tileOf(1, 50_000));
    objects.set(key, compactedAfterEdit(long));
    expect(await reader.readTile(at, b)).toEqual(tileOf(2, 10));
    expect(reader.indexFetches).toBe(2);
  });

  it('answers absent for a tile the rewritten bundle no longer holds, or a bundle gone', async () => {
    const { store, objects } = memoryStore();
    objects.set(key, original);
    const reader = createTileCacheReader(store, { maxTileBytes: 0 });
    expect(await reader.readTile(at, a)).toEqual(tileOf(1, 3000));
    const policy = { maxDeadShare: 0, minDeadBytes: 0 };
    const removed = updateBundle(original, new Map([[tileIndexInBundle(0, 0), new Uint8Array()]]), policy);
    objects.set(key, removed.bytes);
    expect(await reader.readTile(at, a)).toBeUndefined();
    expect(reader.indexFetches).toBe(2);
    objects.delete(key);
    expect(await reader.readTile(at, c)).toBeUndefined();
    expect(reader.indexFetches).toBe(3);
  });

  it('refuses to serve a tile whose record never matches the index', async () => {
    const { store, objects } = memoryStore();
    const broken = new BundleBuilder().add(0, 1, tileOf(2, 2000)).toBytes();
    // The size prefix says 1999 where the index says 2000.
    new DataView(broken.buffer).setUint32(64 + 128 * 128 * 8, 1999, true);
    objects.set(key, broken);
    const reader = createTileCacheReader(store);
    await expect(reader.readTile(at, b)).rejects.toThrow(/does not match the index/);
    expect(reader.indexFetches).toBe(2);
  });
});
