/**
 * The tile memory carried over a restart (infra/tile-memory-record.ts): what a reader holds, recorded by
 * one process and read back into a fresh reader by the next, which then answers those tiles without a
 * read; what a rebuild, a delete or a failed build made stale is left out, as is what does not fit the
 * memory, an old record or a record that is not one; a warm start that cannot finish in its time ends on
 * time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../../db/client.js';
import { deleteTileCache, insertTileCache } from '../../../../db/repositories/tile-caches.js';
import { tileCaches } from '../../../../db/schema/tile-caches.js';
import type { Logger } from '../../../../infra/logger.js';
import type { ObjectStore } from '../../../../infra/object-store.js';
import { bundleKey, createTileCacheReader, explodedKey } from '../../../../infra/tile-cache-store.js';
import {
  RECORD_MAX_AGE_MS,
  RECORDS_KEPT,
  recordTileMemory,
  TILE_MEMORY_PREFIX,
  tileMemoryKey,
  warmTileMemory,
} from '../../../../infra/tile-memory-record.js';
import { webMercatorCache } from '../../../../lib/tiles/cache-definition.js';
import { BUNDLE_FIXED_SIZE, encodeBundle, tileIndexInBundle } from '../../../../lib/tiles/compact-bundle.js';

const log: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => log,
};

/** An object store in memory that counts reads and writes; `stall` makes a key's reads never arrive. */
function memoryStore() {
  const objects = new Map<string, Buffer>();
  const reads: string[] = [];
  const puts: string[] = [];
  const stalled = new Set<string>();
  const get = (key: string) => {
    reads.push(key);
    const o = objects.get(key);
    if (!o) throw Object.assign(new Error('missing'), { code: 'NoSuchKey' });
    return o;
  };
  const store = {
    async put(key: string, body: string | Buffer) {
      puts.push(key);
      objects.set(key, Buffer.from(body));
    },
    async list(prefix: string) {
      return [...objects.keys()].filter((k) => k.startsWith(prefix));
    },
    async remove(key: string) {
      objects.delete(key);
    },
    getBuffer: async (key: string) => get(key),
    getRange: async (key: string, offset: number, length: number) =>
      get(key).subarray(offset, offset + length),
    async getStreamFrom(key: string, offset: number, length: number) {
      if (stalled.has(key)) return new PassThrough(); // never a byte
      return Readable.from([get(key).subarray(offset, offset + length)]);
    },
  } as unknown as ObjectStore;
  return { store, objects, reads, puts, stalled };
}

const tileOf = (fill: number, size: number) => new Uint8Array(size).fill(fill);
const compactAt = (generation = 1) => ({
  serviceItemId: 'a'.repeat(32),
  generation,
  storage: 'compactV2' as const,
});
const explodedAt = {
  serviceItemId: 'b'.repeat(32),
  generation: 1,
  storage: 'exploded' as const,
  extension: 'png',
};

/** Cache A (compact): a bundle at level 3 with two tiles, one at level 8 (rows 128-255) with one. */
function fill(objects: Map<string, Buffer>) {
  const bundle = (tiles: [number, number, Uint8Array][]) =>
    Buffer.from(encodeBundle(new Map(tiles.map(([r, c, b]) => [tileIndexInBundle(r, c), b]))));
  const a = compactAt().serviceItemId;
  objects.set(
    bundleKey(a, 3, 0, 0),
    bundle([
      [1, 2, tileOf(1, 1000)],
      [4, 5, tileOf(2, 2000)],
    ]),
  );
  objects.set(bundleKey(a, 8, 130, 3), bundle([[2, 3, tileOf(3, 3000)]]));
  objects.set(
    explodedKey(explodedAt.serviceItemId, { level: 5, row: 6, col: 7 }),
    Buffer.from(tileOf(4, 500)),
  );
}

/** A level-4 bundle of cache A at 0, 0 with three tiles in its first row, in slot order. */
function putThree(objects: Map<string, Buffer>): Uint8Array[] {
  const three = [tileOf(5, 1000), tileOf(6, 2000), tileOf(7, 3000)];
  objects.set(
    bundleKey(compactAt().serviceItemId, 4, 0, 0),
    Buffer.from(encodeBundle(new Map(three.map((t, col) => [tileIndexInBundle(0, col), t])))),
  );
  return three;
}

/** A reader whose read-ahead brings a bundle's fixed part alone: every tile is a read of its own. */
const small = { readAheadBytes: BUNDLE_FIXED_SIZE };

/** Reads what the tests expect held: both of A's bundles and B's tile, A's level-8 tile used again. */
async function readSome(reader: ReturnType<typeof createTileCacheReader>) {
  await reader.readTile(compactAt(), { level: 3, row: 1, col: 2 });
  await reader.readTile(compactAt(), { level: 8, row: 130, col: 3 });
  await reader.readTile(explodedAt, { level: 5, row: 6, col: 7 });
  await reader.readTile(compactAt(), { level: 8, row: 130, col: 3 });
}

describe('tile memory carried over a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tile-warm-'));
  let database: DatabaseHandle;
  const row = (at: { serviceItemId: string; storage: 'compactV2' | 'exploded' }) => ({
    serviceItemId: at.serviceItemId,
    name: `cache_${at.serviceItemId[0]}`,
    owner: 'someone',
    serviceType: 'MapServer',
    status: 'ready',
    definition: webMercatorCache({ minLevel: 0, maxLevel: 10, storage: at.storage }),
    service: {},
    generation: 1,
    created: 1,
    modified: 1,
  });

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: dir });
    await database.migrate();
  }, 60_000);
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db.delete(tileCaches);
    await insertTileCache(database.db, row(compactAt()));
    await insertTileCache(database.db, row(explodedAt));
  });

  it("lists a compact cache's bundles and an exploded cache's tiles, the most used first, with their bytes", async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    const reader = createTileCacheReader(store);
    await readSome(reader);
    // The level-8 tile was asked for again: its bundle first; the rest newest first. A bundle's bytes are
    // every tile its read-ahead brought.
    // Slots: row 130 col 3 is row 2 col 3 of its bundle, 2 × 128 + 3.
    expect(reader.held()).toEqual([
      { at: compactAt(), level: 8, row: 128, col: 0, bytes: 3000, slots: [259] },
      { at: explodedAt, level: 5, row: 6, col: 7, bytes: 500 },
      { at: compactAt(), level: 3, row: 0, col: 0, bytes: 3000, slots: [130, 517] },
    ]);
    reader.forget(compactAt().serviceItemId);
    expect(reader.held()).toEqual([{ at: explodedAt, level: 5, row: 6, col: 7, bytes: 500 }]);
  });

  it('records what one reader holds and reads it into a fresh one, which then answers without a read', async () => {
    const { store, objects, reads } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    const recorder = recordTileMemory(store, first, { key: tileMemoryKey('host-1'), maxBytes: 1 << 20, log });
    await recorder.stop();
    expect([...objects.keys()].filter((k) => k.startsWith(TILE_MEMORY_PREFIX))).toEqual([
      `${TILE_MEMORY_PREFIX}host-1.json`,
    ]);

    const second = createTileCacheReader(store);
    const warmed = await warmTileMemory(store, database.db, second, {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      log,
    });
    expect(warmed).toMatchObject({ records: 1, read: 3, bytes: 6500, skipped: 0 });
    const before = reads.length;
    expect(await second.readTile(compactAt(), { level: 3, row: 1, col: 2 })).toEqual(tileOf(1, 1000));
    expect(await second.readTile(compactAt(), { level: 3, row: 4, col: 5 })).toEqual(tileOf(2, 2000));
    expect(await second.readTile(compactAt(), { level: 8, row: 130, col: 3 })).toEqual(tileOf(3, 3000));
    expect(await second.readTile(explodedAt, { level: 5, row: 6, col: 7 })).toEqual(tileOf(4, 500));
    // Absent from a bundle read whole: known without a read too.
    expect(await second.readTile(compactAt(), { level: 3, row: 0, col: 0 })).toBeUndefined();
    expect(reads.length).toBe(before);
    expect(second.indexFetches).toBe(2);
  });

  it('reads the held tiles of a bundle larger than the read-ahead, and only those, in one range', async () => {
    const { store, objects, reads } = memoryStore();
    const three = putThree(objects);
    const first = createTileCacheReader(store, small);
    await first.readTile(compactAt(), { level: 4, row: 0, col: 0 });
    await first.readTile(compactAt(), { level: 4, row: 0, col: 2 });
    await recordTileMemory(store, first, { key: tileMemoryKey('h'), maxBytes: 1 << 20, log }).stop();
    const record = JSON.parse(objects.get(tileMemoryKey('h'))!.toString('utf8'));
    expect(record.held[0].slots).toEqual([
      [0, 0],
      [2, 2],
    ]);

    const second = createTileCacheReader(store, small);
    const before = reads.length;
    const warmed = await warmTileMemory(store, database.db, second, {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      log,
    });
    expect(warmed).toMatchObject({ read: 1, bytes: 4000 });
    // The record, the index, then the two held records and the one between them in a single range.
    expect(reads.length - before).toBe(3);
    expect(second.held()).toEqual([
      { at: compactAt(), level: 4, row: 0, col: 0, bytes: 4000, slots: [0, 2] },
    ]);
    const after = reads.length;
    expect(await second.readTile(compactAt(), { level: 4, row: 0, col: 0 })).toEqual(three[0]);
    expect(await second.readTile(compactAt(), { level: 4, row: 0, col: 2 })).toEqual(three[2]);
    expect(reads.length).toBe(after);
    // The tile between, never held, is read when asked for.
    expect(await second.readTile(compactAt(), { level: 4, row: 0, col: 1 })).toEqual(three[1]);
    expect(reads.length).toBe(after + 1);
  });

  it('leaves out a rebuilt, a failed and a deleted cache', async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    await recordTileMemory(store, first, { key: tileMemoryKey('h'), maxBytes: 1 << 20, log }).stop();
    const warmInto = async () => {
      const reader = createTileCacheReader(store);
      const result = await warmTileMemory(store, database.db, reader, {
        maxBytes: 1 << 20,
        deadlineMs: 5000,
        log,
      });
      return { result, reader };
    };

    await database.db
      .update(tileCaches)
      .set({ generation: 2 })
      .where(eq(tileCaches.serviceItemId, compactAt().serviceItemId));
    const rebuilt = await warmInto();
    expect(rebuilt.result).toMatchObject({ read: 1, bytes: 500, skipped: 2 });
    expect(rebuilt.reader.held().map((h) => h.at.serviceItemId)).toEqual([explodedAt.serviceItemId]);

    await database.db
      .update(tileCaches)
      .set({ generation: 1, status: 'failed' })
      .where(eq(tileCaches.serviceItemId, compactAt().serviceItemId));
    await deleteTileCache(database.db, explodedAt.serviceItemId);
    const gone = await warmInto();
    expect(gone.result).toMatchObject({ read: 0, bytes: 0, skipped: 3 });
    expect(gone.reader.held()).toEqual([]);
  });

  it("reads no more than the memory's bound, the most used first", async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    await recordTileMemory(store, first, { key: tileMemoryKey('h'), maxBytes: 1 << 20, log }).stop();
    const reader = createTileCacheReader(store);
    const warmed = await warmTileMemory(store, database.db, reader, {
      maxBytes: 3600,
      deadlineMs: 5000,
      log,
    });
    expect(warmed).toMatchObject({ read: 2, bytes: 3500, skipped: 1 });
    // Read at once (in no set order): the level-8 bundle and the exploded tile, not the level-3 bundle.
    expect(
      reader
        .held()
        .map(({ level }) => level)
        .sort((x, y) => x - y),
    ).toEqual([5, 8]);
  });

  it('takes several records in turn, each bundle once, the newest record first', async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    let clock = 1_000_000;
    const now = () => clock;
    const one = createTileCacheReader(store);
    await one.readTile(compactAt(), { level: 3, row: 1, col: 2 });
    await one.readTile(compactAt(), { level: 8, row: 130, col: 3 });
    await recordTileMemory(store, one, { key: tileMemoryKey('one'), maxBytes: 1 << 20, now, log }).stop();
    clock += 1000;
    const two = createTileCacheReader(store);
    await two.readTile(explodedAt, { level: 5, row: 6, col: 7 });
    await two.readTile(compactAt(), { level: 3, row: 1, col: 2 });
    await recordTileMemory(store, two, { key: tileMemoryKey('two'), maxBytes: 1 << 20, now, log }).stop();
    const reader = createTileCacheReader(store);
    // Only the first two fit: the newest record's first, then the older record's first.
    const warmed = await warmTileMemory(store, database.db, reader, {
      maxBytes: 6000,
      deadlineMs: 5000,
      now,
      log,
    });
    expect(warmed).toMatchObject({ records: 2, read: 2, bytes: 6000, skipped: 1 });
    expect(
      reader
        .held()
        .map(({ level }) => level)
        .sort(),
    ).toEqual([3, 8]);
  });

  it('keeps the held tiles before what the read-ahead brought beside them when memory fills up', async () => {
    const { store, objects } = memoryStore();
    // Two bundles of cache A, each with a tile a process held (slot 0) and one beside it (slot 1).
    for (const level of [4, 5]) {
      const pair = new Map([
        [tileIndexInBundle(0, 0), tileOf(level, 1000)],
        [tileIndexInBundle(0, 1), tileOf(level + 10, 1000)],
      ]);
      objects.set(bundleKey(compactAt().serviceItemId, level, 0, 0), Buffer.from(encodeBundle(pair)));
    }
    const first = createTileCacheReader(store, small);
    await first.readTile(compactAt(), { level: 5, row: 0, col: 0 });
    await first.readTile(compactAt(), { level: 4, row: 0, col: 0 });
    const [four, five] = first.held();
    expect([four.level, four.slots, five.level, five.slots]).toEqual([4, [0], 5, [0]]);
    // Room for three tiles (1,000 bytes and 64 of bookkeeping each); each read-ahead brings two. The
    // level-4 bundle is warmed first (the most used), then the level-5 one: its second tile must push out
    // the level-4 bundle's unheld tile, not its held one.
    const reader = createTileCacheReader(store, { maxTileBytes: 3300 });
    await reader.warm(four);
    await reader.warm(five);
    expect(reader.peekTile(compactAt(), { level: 4, row: 0, col: 0 })).toEqual(tileOf(4, 1000));
    expect(reader.peekTile(compactAt(), { level: 4, row: 0, col: 1 })).toBeUndefined();
    expect(reader.peekTile(compactAt(), { level: 5, row: 0, col: 0 })).toEqual(tileOf(5, 1000));
  });

  it("takes a bundle's tiles from the newest record that holds it, wherever the older ones place it", async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    putThree(objects);
    let clock = 1_000_000;
    const now = () => clock;
    // The older process held the bundle's first tile, first in its record …
    const older = createTileCacheReader(store, small);
    await older.readTile(compactAt(), { level: 4, row: 0, col: 0 });
    await recordTileMemory(store, older, { key: tileMemoryKey('older'), maxBytes: 1 << 20, now, log }).stop();
    clock += 1000;
    // … the newer its last, second in its record after an exploded tile.
    const newer = createTileCacheReader(store, small);
    await newer.readTile(compactAt(), { level: 4, row: 0, col: 2 });
    await newer.readTile(explodedAt, { level: 5, row: 6, col: 7 });
    await recordTileMemory(store, newer, { key: tileMemoryKey('newer'), maxBytes: 1 << 20, now, log }).stop();
    const reader = createTileCacheReader(store, small);
    const warmed = await warmTileMemory(store, database.db, reader, {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      now,
      log,
    });
    expect(warmed).toMatchObject({ records: 2, read: 2, bytes: 3500 });
    expect(reader.held().find((h) => h.level === 4)).toMatchObject({ bytes: 3000, slots: [2] });
  });

  it('removes a record older than a day and one that is not a record, reading neither', async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    const written = 5_000_000_000;
    await recordTileMemory(store, first, {
      key: tileMemoryKey('old'),
      maxBytes: 1 << 20,
      now: () => written,
      log,
    }).stop();
    objects.set(
      `${TILE_MEMORY_PREFIX}bad.json`,
      Buffer.from('{"version":1,"written":1,"held":[{"level":"x"}]}'),
    );
    // A day younger than the others, so read if it were a record: a slot past a bundle's 16,384.
    const slotsPastBundle = {
      ...JSON.parse(objects.get(tileMemoryKey('old'))!.toString('utf8')),
      written: written + RECORD_MAX_AGE_MS,
    };
    slotsPastBundle.held[0].slots = [[16383, 16384]];
    objects.set(`${TILE_MEMORY_PREFIX}slots.json`, Buffer.from(JSON.stringify(slotsPastBundle)));
    objects.set(`${TILE_MEMORY_PREFIX}worse.json`, Buffer.from('not json'));
    const reader = createTileCacheReader(store);
    const warmed = await warmTileMemory(store, database.db, reader, {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      now: () => written + RECORD_MAX_AGE_MS + 1,
      log,
    });
    expect(warmed).toMatchObject({ records: 0, read: 0 });
    expect([...objects.keys()].filter((k) => k.startsWith(TILE_MEMORY_PREFIX))).toEqual([]);
  });

  it('keeps the newest records up to the cap and removes the older ones', async () => {
    const { store, objects } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    const written = 5_000_000_000;
    const starts = RECORDS_KEPT + 5;
    // One record per process start, a minute apart, in an order unlike their age.
    for (let i = 0; i < starts; i++) {
      const at = written + ((i * 7) % starts) * 60_000;
      await recordTileMemory(store, first, {
        key: tileMemoryKey(`start-${(i * 7) % starts}`),
        maxBytes: 1 << 20,
        now: () => at,
        log,
      }).stop();
    }
    const warmed = await warmTileMemory(store, database.db, createTileCacheReader(store), {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      now: () => written + starts * 60_000,
      log,
    });
    expect(warmed).toMatchObject({ records: RECORDS_KEPT, read: 3 });
    const left = [...objects.keys()].filter((k) => k.startsWith(TILE_MEMORY_PREFIX)).sort();
    const newest = Array.from({ length: RECORDS_KEPT }, (_, i) => tileMemoryKey(`start-${starts - 1 - i}`));
    expect(left).toEqual(newest.sort());
  });

  it('ends on time when a read does not come, and a process that cannot warm starts cold', async () => {
    const { store, objects, stalled } = memoryStore();
    fill(objects);
    const first = createTileCacheReader(store);
    await readSome(first);
    await recordTileMemory(store, first, { key: tileMemoryKey('h'), maxBytes: 1 << 20, log }).stop();
    for (const k of objects.keys()) if (k.startsWith('caches/')) stalled.add(k);
    const reader = createTileCacheReader(store);
    const started = Date.now();
    const warmed = await warmTileMemory(store, database.db, reader, {
      maxBytes: 1 << 20,
      deadlineMs: 300,
      log,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    // The exploded tile is a whole-object read, not stalled: it is in; the two bundles never come.
    expect(warmed).toMatchObject({ records: 1, read: 1, bytes: 500 });

    const broken = { ...store, list: async () => Promise.reject(new Error('store down')) } as ObjectStore;
    const cold = await warmTileMemory(broken, database.db, createTileCacheReader(store), {
      maxBytes: 1 << 20,
      deadlineMs: 5000,
      log,
    });
    expect(cold).toMatchObject({ records: 0, read: 0 });
  });

  it('writes a record only when memory has changed, and none for an empty memory', async () => {
    const { store, objects, puts } = memoryStore();
    fill(objects);
    const reader = createTileCacheReader(store);
    const recorder = recordTileMemory(store, reader, { key: tileMemoryKey('h'), maxBytes: 1 << 20, log });
    await recorder.write();
    expect(puts).toEqual([]);
    await reader.readTile(compactAt(), { level: 3, row: 1, col: 2 });
    await recorder.write();
    await recorder.write();
    expect(puts).toHaveLength(1);
    await reader.readTile(explodedAt, { level: 5, row: 6, col: 7 });
    await recorder.stop();
    expect(puts).toHaveLength(2);
    const record = JSON.parse(objects.get(tileMemoryKey('h'))!.toString('utf8'));
    expect(record.held).toEqual([
      {
        serviceItemId: explodedAt.serviceItemId,
        generation: 1,
        storage: 'exploded',
        extension: 'png',
        level: 5,
        row: 6,
        col: 7,
        bytes: 500,
      },
      {
        serviceItemId: compactAt().serviceItemId,
        generation: 1,
        storage: 'compactV2',
        level: 3,
        row: 0,
        col: 0,
        bytes: 3000,
        slots: [
          [130, 130],
          [517, 517],
        ],
      },
    ]);
  });
});
