/**
 * The tile reader's memory: tiles kept up to a byte bound (least recently used go first), keyed by the
 * cache's generation, and absent tiles remembered so empty areas cost no object-store read.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../../../infra/object-store.js';
import { bundleKey, createTileCacheReader, explodedKey } from '../../../../infra/tile-cache-store.js';
import { encodeBundle, tileIndexInBundle } from '../../../../lib/tiles/compact-bundle.js';

/** An object store in memory that counts the reads made against it. */
function memoryStore() {
  const objects = new Map<string, Buffer>();
  const reads: string[] = [];
  const missing = () => Object.assign(new Error('missing'), { code: 'NoSuchKey' });
  const store = {
    async getBuffer(key: string) {
      reads.push(key);
      const o = objects.get(key);
      if (!o) throw missing();
      return o;
    },
    async getRange(key: string, offset: number, length: number) {
      reads.push(key);
      const o = objects.get(key);
      if (!o) throw missing();
      return o.subarray(offset, offset + length);
    },
    async getStreamFrom(key: string, offset: number, length: number) {
      reads.push(key);
      const o = objects.get(key);
      if (!o) throw missing();
      return Readable.from([o.subarray(offset, offset + length)]);
    },
  } as unknown as ObjectStore;
  return { store, objects, reads };
}

const tileOf = (fill: number, size: number) => new Uint8Array(size).fill(fill);
const compact = (generation: number) => ({ serviceItemId: 'svc', generation, storage: 'compactV2' as const });

function putBundle(objects: Map<string, Buffer>, level: number, tiles: [number, number, Uint8Array][]) {
  const byIndex = new Map(tiles.map(([row, col, bytes]) => [tileIndexInBundle(row, col), bytes]));
  objects.set(bundleKey('svc', level, 0, 0), Buffer.from(encodeBundle(byIndex)));
}

describe('tile reader memory', () => {
  it('answers a second read of a tile from memory with the same bytes', async () => {
    const { store, objects, reads } = memoryStore();
    putBundle(objects, 3, [[1, 2, tileOf(7, 1000)]]);
    const reader = createTileCacheReader(store);
    const first = await reader.readTile(compact(1), { level: 3, row: 1, col: 2 });
    const readsAfterFirst = reads.length;
    const second = await reader.readTile(compact(1), { level: 3, row: 1, col: 2 });
    expect(second).toEqual(tileOf(7, 1000));
    expect(second).toBe(first);
    expect(reads.length).toBe(readsAfterFirst);
    expect(reader.peekTile(compact(1), { level: 3, row: 1, col: 2 })).toBe(first);
  });

  it('keeps tiles up to its byte bound and drops the least recently used first', async () => {
    const { store, objects, reads } = memoryStore();
    putBundle(objects, 3, [
      [0, 0, tileOf(1, 4000)],
      [0, 1, tileOf(2, 4000)],
      [0, 2, tileOf(3, 4000)],
    ]);
    // Room for two 4,000-byte tiles (each also counts 64 bytes of bookkeeping), not three.
    const reader = createTileCacheReader(store, { maxTileBytes: 9000 });
    const at = compact(1);
    await reader.readTile(at, { level: 3, row: 0, col: 0 });
    await reader.readTile(at, { level: 3, row: 0, col: 1 });
    await reader.readTile(at, { level: 3, row: 0, col: 0 }); // now the most recently used
    await reader.readTile(at, { level: 3, row: 0, col: 2 });
    expect(reader.peekTile(at, { level: 3, row: 0, col: 0 })).toEqual(tileOf(1, 4000));
    expect(reader.peekTile(at, { level: 3, row: 0, col: 1 })).toBeUndefined();
    expect(reader.peekTile(at, { level: 3, row: 0, col: 2 })).toEqual(tileOf(3, 4000));
    const before = reads.length;
    expect(await reader.readTile(at, { level: 3, row: 0, col: 1 })).toEqual(tileOf(2, 4000));
    expect(reads.length).toBe(before + 1);
  });

  it('keeps nothing when its bound is zero', async () => {
    const { store, objects } = memoryStore();
    putBundle(objects, 3, [[0, 0, tileOf(1, 100)]]);
    const reader = createTileCacheReader(store, { maxTileBytes: 0 });
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 0 })).toEqual(tileOf(1, 100));
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 0 })).toBeUndefined();
  });

  it('keys tiles by generation: a rebuilt cache is read again, never served from the old entries', async () => {
    const { store, objects } = memoryStore();
    putBundle(objects, 3, [[1, 1, tileOf(1, 500)]]);
    const reader = createTileCacheReader(store);
    expect(await reader.readTile(compact(1), { level: 3, row: 1, col: 1 })).toEqual(tileOf(1, 500));
    putBundle(objects, 3, [[1, 1, tileOf(9, 600)]]);
    expect(reader.peekTile(compact(2), { level: 3, row: 1, col: 1 })).toBeUndefined();
    expect(await reader.readTile(compact(2), { level: 3, row: 1, col: 1 })).toEqual(tileOf(9, 600));
    expect(await reader.readTile(compact(1), { level: 3, row: 1, col: 1 })).toEqual(tileOf(1, 500));
  });

  it('remembers a tile its bundle lacks for the generation: no second read', async () => {
    const { store, objects, reads } = memoryStore();
    putBundle(objects, 3, [[0, 0, tileOf(1, 100)]]);
    const reader = createTileCacheReader(store);
    expect(await reader.readTile(compact(1), { level: 3, row: 5, col: 5 })).toBeUndefined();
    const before = reads.length;
    expect(reader.peekTile(compact(1), { level: 3, row: 5, col: 5 })).toBeNull();
    expect(await reader.readTile(compact(1), { level: 3, row: 5, col: 5 })).toBeUndefined();
    expect(reads.length).toBe(before);
  });

  it('remembers a missing bundle for its time to live, then looks again', async () => {
    const { store, objects, reads } = memoryStore();
    let now = 1_000;
    const reader = createTileCacheReader(store, { missingTtlMs: 5_000, now: () => now });
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 0 })).toBeUndefined();
    expect(reads).toHaveLength(1);
    putBundle(objects, 3, [[0, 0, tileOf(4, 100)]]);
    now += 4_000;
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 0 })).toBeNull();
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 0 })).toBeUndefined();
    expect(reads).toHaveLength(1);
    now += 2_000;
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 0 })).toBeUndefined();
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 0 })).toEqual(tileOf(4, 100));
  });

  it('remembers a missing exploded tile for its time to live', async () => {
    const { store, objects, reads } = memoryStore();
    let now = 0;
    const reader = createTileCacheReader(store, { missingTtlMs: 1_000, now: () => now });
    const at = { serviceItemId: 'svc', generation: 1, storage: 'exploded' as const, extension: 'png' };
    const tile = { level: 4, row: 3, col: 2 };
    expect(await reader.readTile(at, tile)).toBeUndefined();
    expect(await reader.readTile(at, tile)).toBeUndefined();
    expect(reads).toEqual([explodedKey('svc', tile, 'png')]);
    objects.set(explodedKey('svc', tile, 'png'), Buffer.from(tileOf(5, 50)));
    now = 1_001;
    expect(await reader.readTile(at, tile)).toEqual(tileOf(5, 50));
  });

  it('keeps an exact copy of a tile read as a view into a larger buffer', async () => {
    const { store, objects } = memoryStore();
    putBundle(objects, 3, [[0, 0, tileOf(6, 300)]]);
    const reader = createTileCacheReader(store);
    const bytes = await reader.readTile(compact(1), { level: 3, row: 0, col: 0 });
    expect(bytes?.byteLength).toBe(300);
    expect(bytes?.buffer.byteLength).toBe(300);
  });

  it('shares reads under way: a bundle asked for many tiles at once fetches its index once', async () => {
    const { store, objects, reads } = memoryStore();
    putBundle(objects, 3, [
      [0, 0, tileOf(1, 100)],
      [0, 1, tileOf(2, 100)],
    ]);
    const reader = createTileCacheReader(store, { readAheadBytes: 0 });
    const asks = [0, 1, 0, 1, 0, 1, 2].map((col) => reader.readTile(compact(1), { level: 3, row: 0, col }));
    const got = await Promise.all(asks);
    expect(got.map((b) => b?.[0])).toEqual([1, 2, 1, 2, 1, 2, undefined]);
    expect(reader.indexFetches).toBe(1);
    // One index read and one read per present tile.
    expect(reads).toHaveLength(3);
  });

  it('reads a small bundle whole with its index: every tile is then in memory, read once', async () => {
    const { store, objects, reads } = memoryStore();
    // Rows and columns beyond the first bundle's origin: bundle (256, 128) of level 9.
    const tiles: [number, number, Uint8Array][] = [
      [256, 128, tileOf(1, 5000)],
      [300, 200, tileOf(2, 7000)],
      [383, 255, tileOf(3, 1)],
    ];
    const byIndex = new Map(tiles.map(([row, col, bytes]) => [tileIndexInBundle(row, col), bytes]));
    objects.set(bundleKey('svc', 9, 256, 128), Buffer.from(encodeBundle(byIndex)));
    const reader = createTileCacheReader(store);
    const asks = [
      [300, 200],
      [256, 128],
      [383, 255],
      [257, 128],
    ].map(([row, col]) => reader.readTile(compact(1), { level: 9, row, col }));
    expect(await Promise.all(asks)).toEqual([tileOf(2, 7000), tileOf(1, 5000), tileOf(3, 1), undefined]);
    expect(reads).toHaveLength(1);
    for (const [row, col, bytes] of tiles) {
      const kept = reader.peekTile(compact(1), { level: 9, row, col });
      expect(kept).toEqual(bytes);
      // A copy of its own, not a view into the read.
      expect(kept?.buffer.byteLength).toBe(bytes.length);
    }
    // Another generation of the same service is another cache.
    expect(reader.peekTile(compact(2), { level: 9, row: 300, col: 200 })).toBeUndefined();
  });

  it('keeps the tiles a read-ahead holds whole and reads the rest one by one', async () => {
    const { store, objects, reads } = memoryStore();
    // encodeBundle writes records in slot order after the 64 + 131,072 fixed bytes.
    putBundle(objects, 3, [
      [0, 0, tileOf(1, 1000)],
      [0, 1, tileOf(2, 1000)],
      [0, 2, tileOf(3, 1000)],
    ]);
    // Room for the first record (4 + 1,000 bytes) and half of the second.
    const reader = createTileCacheReader(store, { readAheadBytes: 131_136 + 1004 + 500 });
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 2 })).toEqual(tileOf(3, 1000));
    expect(reads).toHaveLength(2);
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 0 })).toEqual(tileOf(1, 1000));
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 1 })).toBeUndefined();
    expect(await reader.readTile(compact(1), { level: 3, row: 0, col: 1 })).toEqual(tileOf(2, 1000));
    expect(reads).toHaveLength(3);
  });

  it('forgets every tile of a service when asked', async () => {
    const { store, objects } = memoryStore();
    putBundle(objects, 3, [[0, 0, tileOf(6, 300)]]);
    const reader = createTileCacheReader(store);
    await reader.readTile(compact(1), { level: 3, row: 0, col: 0 });
    reader.forget('svc');
    expect(reader.peekTile(compact(1), { level: 3, row: 0, col: 0 })).toBeUndefined();
  });
});
