/**
 * The read-ahead as it arrives: a bundle's index is answered once its bytes are in, each tile as soon as
 * its record is, and a read of a tile still on its way waits for it instead of asking the object store
 * for it again. The object store here hands out a stream the test feeds by hand, so what is answered
 * before the range has fully arrived is seen, not inferred from timings.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../../../infra/object-store.js';
import { bundleKey, createTileCacheReader } from '../../../../infra/tile-cache-store.js';
import { BUNDLE_FIXED_SIZE, encodeBundle, tileIndexInBundle } from '../../../../lib/tiles/compact-bundle.js';

const tileOf = (fill: number, size: number) => new Uint8Array(size).fill(fill);
const at = { serviceItemId: 'svc', generation: 1, storage: 'compactV2' as const };
const key = bundleKey('svc', 3, 0, 0);
// encodeBundle writes the records in slot order after the fixed part, each a 4-byte size and the tile.
const tiles = [tileOf(1, 1000), tileOf(2, 2000), tileOf(3, 3000)];
const bundle = Buffer.from(encodeBundle(new Map(tiles.map((t, col) => [tileIndexInBundle(0, col), t]))));
const recordEnd = (col: number) =>
  BUNDLE_FIXED_SIZE + tiles.slice(0, col + 1).reduce((n, t) => n + 4 + t.length, 0);

/** One bundle; each read-ahead is a stream the test writes, every other read a plain range. */
function feedStore() {
  const streams: PassThrough[] = [];
  const ranges: { offset: number; length: number }[] = [];
  const store = {
    async getStreamFrom(k: string, offset: number, length: number) {
      expect({ k, offset, length }).toEqual({ k: key, offset: 0, length: 4 * 1024 ** 2 });
      const s = new PassThrough();
      streams.push(s);
      return s;
    },
    async getRange(k: string, offset: number, length: number) {
      expect(k).toBe(key);
      ranges.push({ offset, length });
      return bundle.subarray(offset, offset + length);
    },
  } as unknown as ObjectStore;
  return { store, streams, ranges };
}

/** Lets the reader's callbacks run: stream events and the promises they settle. */
const settle = () => new Promise((r) => setTimeout(r, 5));

/** Whether `p` has settled, and with what. */
function watch<T>(p: Promise<T>) {
  const state: { done: boolean; value?: T } = { done: false };
  void p.then((value) => Object.assign(state, { done: true, value }));
  return state;
}

describe('tile read-ahead as it arrives', () => {
  it('answers the index and each tile as their bytes come in, with one read of the bundle', async () => {
    const { store, streams, ranges } = feedStore();
    const reader = createTileCacheReader(store);
    const first = watch(reader.readTile(at, { level: 3, row: 0, col: 0 }));
    const last = watch(reader.readTile(at, { level: 3, row: 0, col: 2 }));
    const sizes = watch(reader.bundleSizes(at, 3, 0, 0));
    await settle();
    expect(streams).toHaveLength(1);
    // Not yet the whole index: nothing is answered.
    streams[0].write(bundle.subarray(0, BUNDLE_FIXED_SIZE - 1));
    await settle();
    expect([first.done, last.done, sizes.done]).toEqual([false, false, false]);
    // The index and the first record: the index and the first tile are answered, the last still waits.
    streams[0].write(bundle.subarray(BUNDLE_FIXED_SIZE - 1, recordEnd(0)));
    await settle();
    expect(sizes.done).toBe(true);
    expect([...(sizes.value as Uint32Array).subarray(0, 4)]).toEqual([1000, 2000, 3000, 0]);
    expect(first).toEqual({ done: true, value: tiles[0] });
    expect(last.done).toBe(false);
    // The second record and part of the third: the second is kept, the third still waits.
    streams[0].write(bundle.subarray(recordEnd(0), recordEnd(2) - 1));
    await settle();
    expect(reader.peekTile(at, { level: 3, row: 0, col: 1 })).toEqual(tiles[1]);
    expect(last.done).toBe(false);
    streams[0].end(bundle.subarray(recordEnd(2) - 1));
    await settle();
    expect(last).toEqual({ done: true, value: tiles[2] });
    // All of it came with the one read: no range was asked for, and absent slots are known absent.
    expect(ranges).toEqual([]);
    expect(reader.indexFetches).toBe(1);
    expect(await reader.readTile(at, { level: 3, row: 0, col: 3 })).toBeUndefined();
    expect(streams).toHaveLength(1);
  });

  it('keeps tiles of a bundle larger than its first buffer, sent in small chunks', async () => {
    const big = [tileOf(4, 300_000), tileOf(5, 400_000), tileOf(6, 500_000)];
    const bytes = Buffer.from(encodeBundle(new Map(big.map((t, col) => [tileIndexInBundle(0, col), t]))));
    const { streams, ranges } = feedStore();
    const store = {
      getStreamFrom: async () => {
        const s = new PassThrough();
        streams.push(s);
        return s;
      },
      getRange: async () => {
        ranges.push({ offset: -1, length: -1 });
        throw new Error('no range reads here');
      },
    } as unknown as ObjectStore;
    const reader = createTileCacheReader(store);
    const reads = big.map((_, col) => reader.readTile(at, { level: 3, row: 0, col }));
    await settle();
    for (let i = 0; i < bytes.length; i += 65_536) streams[0].write(bytes.subarray(i, i + 65_536));
    streams[0].end();
    expect(await Promise.all(reads)).toEqual(big);
    expect({ streams: streams.length, ranges }).toEqual({ streams: 1, ranges: [] });
  });

  it('reads a tile by its own range when the read-ahead breaks off before it', async () => {
    const { store, streams, ranges } = feedStore();
    const reader = createTileCacheReader(store);
    const last = watch(reader.readTile(at, { level: 3, row: 0, col: 2 }));
    await settle();
    streams[0].write(bundle.subarray(0, recordEnd(0)));
    await settle();
    expect(last.done).toBe(false);
    streams[0].destroy(new Error('connection reset'));
    await settle();
    expect(last).toEqual({ done: true, value: tiles[2] });
    // The tile's record, size prefix included, and nothing else.
    expect(ranges).toEqual([{ offset: recordEnd(1), length: 4 + 3000 }]);
    // The index read before the break stays; the tile read whole before it too.
    expect(reader.peekTile(at, { level: 3, row: 0, col: 0 })).toEqual(tiles[0]);
    expect(await reader.readTile(at, { level: 3, row: 0, col: 1 })).toEqual(tiles[1]);
    expect(streams).toHaveLength(1);
  });

  it('fails the reads when the read-ahead breaks off before the index is in, and reads again next time', async () => {
    const { store, streams } = feedStore();
    const reader = createTileCacheReader(store);
    const first = reader.readTile(at, { level: 3, row: 0, col: 0 });
    await settle();
    streams[0].write(bundle.subarray(0, 1000));
    streams[0].destroy(new Error('connection reset'));
    await expect(first).rejects.toThrow('connection reset');
    const again = reader.readTile(at, { level: 3, row: 0, col: 0 });
    await settle();
    expect(streams).toHaveLength(2);
    streams[1].end(bundle);
    expect(await again).toEqual(tiles[0]);
  });

  it('refuses a bundle shorter than its header and index, as the index read does', async () => {
    const { store, streams } = feedStore();
    const reader = createTileCacheReader(store);
    const read = reader.readTile(at, { level: 3, row: 0, col: 0 });
    await settle();
    streams[0].end(bundle.subarray(0, 5000));
    await expect(read).rejects.toThrow('Bundle index is truncated.');
  });
});
