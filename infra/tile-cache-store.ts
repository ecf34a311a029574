/**
 * Where tile caches live in the object store, and a reader that serves tiles out of them: a compact
 * bundle's 128 KiB index is fetched once by range request and kept in an LRU, then each tile is one
 * more range request (and kept in a byte-bounded LRU of its own, since map clients ask again and again).
 * The index's request reads ahead: it asks for the bundle's first `readAheadBytes` (4 MiB), and every
 * tile record that range holds goes into the tile LRU at once. A small bundle (most of a cache's
 * bundles) is then one request in all, and a map view's first tiles do not each wait for a request of
 * their own. The range is used as it arrives: the index is answered once it is in, and each tile as soon
 * as its record is, so a tile near a large bundle's start does not wait for the megabytes after it.
 * Absent tiles are remembered too: empty areas are most of a map and must not cost a read each time.
 * That request includes the tile's 4-byte size prefix: a bundle rewritten after its index was read (an
 * edit refresh compacting it, a rebuild) shows as a prefix that does not match, and the index is read
 * again once.
 */
import { finished, type Readable } from 'node:stream';
import type { CacheStorage } from '../lib/tiles/cache-definition.js';
import {
  BUNDLE_DIM,
  BUNDLE_FIXED_SIZE,
  BUNDLE_HEADER_SIZE,
  BUNDLE_INDEX_RANGE,
  BUNDLE_INDEX_SIZE,
  type BundleIndex,
  bundleOrigin,
  bundlePath,
  parseBundleIndex,
  tileEntry,
  tileIndexInBundle,
  tileOfRecord,
  tileRecordRange,
} from '../lib/tiles/compact-bundle.js';
import { explodedTilePath } from '../lib/tiles/exploded-paths.js';
import type { TileAddress } from '../lib/tiles/web-mercator.js';
import type { ObjectStore } from './object-store.js';

export const cachePrefix = (serviceItemId: string): string => `caches/${serviceItemId}/`;
export const confXmlKey = (serviceItemId: string): string => `${cachePrefix(serviceItemId)}conf.xml`;
export const confCdiKey = (serviceItemId: string): string => `${cachePrefix(serviceItemId)}conf.cdi`;
/** Vector tile services keep their styles, sprites and fonts here (paths as in the .vtpk's p12/). */
export const resourceKey = (serviceItemId: string, path: string): string =>
  `${cachePrefix(serviceItemId)}${path.replace(/^\/+/, '')}`;

export function bundleKey(serviceItemId: string, level: number, row: number, col: number): string {
  return `${cachePrefix(serviceItemId)}_alllayers/${bundlePath(level, row, col)}`;
}

export function explodedKey(serviceItemId: string, tile: TileAddress, extension = 'png'): string {
  return `${cachePrefix(serviceItemId)}_alllayers/${explodedTilePath(tile, extension)}`;
}

/**
 * A map bounded by a total weight (entries count 1 unless a weight is given) that lets go of the entries
 * least recently used first, approximately: a use marks its entry (one map read, where moving it to the
 * end was three map operations and the map's regrowth, on every warm tile), and making room passes over
 * the entries from the oldest, giving each marked one a second chance at the end (the "clock" scheme).
 */
/** An entry of an LruMap as `watch` gives it: `gone` once the map has let it go or replaced it. */
export interface LruEntry<V> {
  readonly value: V;
  readonly weight: number;
  used: boolean;
  gone: boolean;
}

export class LruMap<V> {
  private readonly entries = new Map<string, LruEntry<V>>();
  private weight = 0;

  constructor(private readonly maxWeight: number) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    hit.used = true;
    return hit.value;
  }

  /** The value without marking a use. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * The key's entry, for a use repeated without a map read: while not `gone` it is still the key's, and
   * setting `used` marks a use as `get` does.
   */
  watch(key: string): LruEntry<V> | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V, weight = 1): void {
    if (weight > this.maxWeight) return;
    this.delete(key);
    this.entries.set(key, { value, weight, used: false, gone: false });
    this.weight += weight;
    // Each marked entry moves to the end once, unmarked, as does the entry just set (it is let go last):
    // every entry is passed at most twice before the weight is in bounds.
    for (const [k, e] of this.entries) {
      if (this.weight <= this.maxWeight) break;
      this.entries.delete(k);
      if (e.used || k === key) {
        e.used = false;
        this.entries.set(k, e);
      } else {
        this.weight -= e.weight;
        e.gone = true;
      }
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.weight -= e.weight;
    e.gone = true;
  }

  deletePrefix(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The entries, the most recently used first as far as the clock tells: those marked by a use since
   * they were last passed, newest first, then the others, newest first. Marks no entry.
   */
  byUse(): [string, V][] {
    const marked: [string, V][] = [];
    const unmarked: [string, V][] = [];
    for (const [k, e] of this.entries) (e.used ? marked : unmarked).push([k, e.value]);
    return [...marked.reverse(), ...unmarked.reverse()];
  }
}

export interface TileLocation {
  serviceItemId: string;
  /** Build generation: part of every cache key, so a rebuilt cache is never served from stale entries. */
  generation?: number;
  storage: CacheStorage;
  /** Exploded caches: the file extension (png, jpg, pbf). */
  extension?: string;
}

export interface TileCacheReader {
  /** The tile's bytes, or undefined when the cache has no such tile. */
  readTile(at: TileLocation, tile: TileAddress): Promise<Uint8Array | undefined>;
  /**
   * What memory alone knows of a tile: its bytes, `null` when it is known to be absent, `undefined`
   * when only the object store can tell (then call readTile).
   */
  peekTile(at: TileLocation, tile: TileAddress): Uint8Array | null | undefined;
  /**
   * For an answer repeated with every request (the socket front's replays): a check that memory still
   * holds `bytes` as the tile, marking a use as peekTile does, without a map read. Undefined when memory
   * does not hold them now.
   */
  watchTile(at: TileLocation, tile: TileAddress, bytes: Uint8Array): (() => boolean) | undefined;
  /**
   * The tile sizes of a compact bundle by slot (0: no tile), from its index as the tile reads keep it;
   * undefined when the bundle does not exist. Tile maps are answered from these.
   */
  bundleSizes(at: TileLocation, level: number, row0: number, col0: number): Promise<Uint32Array | undefined>;
  /** Forgets everything cached for a service (after a rebuild or delete). */
  forget(serviceItemId: string): void;
  /**
   * What memory holds tiles of, the most used first: a compact cache's bundles and an exploded cache's
   * tiles, each with the bytes held of it. A process records this for its successor (tile-memory-record.ts).
   */
  held(): HeldTiles[];
  /**
   * Reads into memory what `held` named, as a request for its tiles would: a bundle's index and first
   * `readAheadBytes` (resolves once they are all in), or an exploded tile.
   */
  warm(held: HeldTiles): Promise<void>;
  /** Range requests made for bundle indexes so far (lets tests see the index is fetched once). */
  readonly indexFetches: number;
}

export interface TileCacheReaderOptions {
  /** Bundle indexes kept (each about 192 KiB decoded); default 128. */
  maxIndexes?: number;
  /** Bytes of tiles kept; default 64 MiB. */
  maxTileBytes?: number;
  /**
   * How long a missing bundle or exploded tile is remembered, so a building cache shows new objects
   * soon (ms). A tile absent from a bundle's index is remembered as long as its generation lives.
   */
  missingTtlMs?: number;
  /**
   * Bytes read from a bundle's start with its index, whose tiles are kept at once; default 4 MiB.
   * 0 reads the index alone.
   */
  readAheadBytes?: number;
  now?: () => number;
}

/** What `held` lists and `warm` reads again. */
export interface HeldTiles {
  at: TileLocation;
  level: number;
  /** A compact bundle's first row and column, or an exploded tile's own. */
  row: number;
  col: number;
  /** Bytes of these tiles memory held. */
  bytes: number;
  /** A compact bundle's slots whose tiles memory held (tileIndexInBundle), ascending. */
  slots?: number[];
}

/** Held records closer than this are read with one range request when warming. */
const WARM_GAP_BYTES = 1024 * 1024;

/** A bundle read for the first time, for the tile keys of the tiles read ahead with its index. */
interface BundleAt {
  at: TileLocation;
  level: number;
  row0: number;
  col0: number;
}

/** A bundle's read-ahead still arriving after its index. */
interface Arriving {
  /** Resolves once the bytes before `end` are in and their tiles kept; false when the read ended first. */
  until(end: number): Promise<boolean>;
}

/** The slots holding a tile, in the order of their records in the bundle. */
function recordOrder({ offsets, sizes }: BundleIndex): number[] {
  const order: number[] = [];
  for (let slot = 0; slot < sizes.length; slot++) if (sizes[slot] > 0 && offsets[slot] >= 4) order.push(slot);
  return order.sort((a, b) => offsets[a] - offsets[b]);
}

/** A tile's record read through an index its bundle no longer has. */
const MOVED = Symbol('moved');

/** The read-ahead's first buffer: header, index and the first tiles; it doubles as more arrives. */
const FIRST_BUFFER_BYTES = 512 * 1024;

/** An absent tile costs a key and this much in the byte bound. */
const ABSENT_WEIGHT = 64;
/** Held in the tile LRU for a tile known to be absent until `until` (Infinity: for this generation). */
interface Absent {
  until: number;
}

export function createTileCacheReader(
  store: ObjectStore,
  options: TileCacheReaderOptions = {},
): TileCacheReader {
  const indexes = new LruMap<BundleIndex | { missingUntil: number }>(options.maxIndexes ?? 128);
  const tiles = new LruMap<Uint8Array | Absent>(options.maxTileBytes ?? 64 * 1024 ** 2);
  const missingTtl = options.missingTtlMs ?? 5_000;
  const readAhead = Math.max(options.readAheadBytes ?? 4 * 1024 ** 2, BUNDLE_FIXED_SIZE);
  const now = options.now ?? Date.now;
  let indexFetches = 0;

  // Reads under way, shared: a map view asks for the tiles of one bundle all at once.
  const pendingIndexes = new Map<string, Promise<BundleIndex | number>>();
  // Bundles whose first bytes are still arriving after their index, by index key.
  const arriving = new Map<string, Arriving>();
  const pendingTiles = new Map<string, Promise<Uint8Array | undefined>>();
  // Where each service's tiles are, by the `{serviceItemId}/{generation}` their keys start with: `held`
  // reads tile keys back into what to warm.
  const locations = new Map<string, TileLocation>();
  const locate = (at: TileLocation) => locations.set(`${at.serviceItemId}/${at.generation ?? 0}`, at);

  /** The index, or the time until which the bundle is known to be missing. */
  function bundleIndex(
    cacheKey: string,
    key: string,
    bundle: BundleAt,
  ): BundleIndex | number | Promise<BundleIndex | number> {
    const cached = indexes.get(cacheKey);
    if (cached && 'sizes' in cached) return cached;
    if (cached && cached.missingUntil > now()) return cached.missingUntil;
    let pending = pendingIndexes.get(cacheKey);
    if (!pending) {
      locate(bundle.at);
      pending = fetchIndex(cacheKey, key, bundle).finally(() => pendingIndexes.delete(cacheKey));
      pendingIndexes.set(cacheKey, pending);
    }
    return pending;
  }

  async function fetchIndex(cacheKey: string, key: string, bundle: BundleAt): Promise<BundleIndex | number> {
    indexFetches++;
    if (readAhead > BUNDLE_FIXED_SIZE) return readAheadIndex(cacheKey, key, bundle);
    const bytes = await rangeOrMissing(store, key, BUNDLE_INDEX_RANGE.start, BUNDLE_INDEX_SIZE);
    if (!bytes) return missingBundle(cacheKey);
    const index = parseBundleIndex(bytes);
    indexes.set(cacheKey, index);
    return index;
  }

  function missingBundle(cacheKey: string): number {
    const missingUntil = now() + missingTtl;
    indexes.set(cacheKey, { missingUntil });
    return missingUntil;
  }

  /**
   * The index read with the bundle's first `readAhead` bytes, as they arrive: the index is answered as
   * soon as it is in, and each tile whose whole record (size prefix and bytes) is in is kept at once, in
   * the order the bundle holds them. A read of such a tile waits for its record (`arriving`) instead of
   * waiting for the whole range or asking for the record again.
   */
  async function readAheadIndex(
    cacheKey: string,
    key: string,
    bundle: BundleAt,
  ): Promise<BundleIndex | number> {
    let stream: Readable;
    try {
      stream = await store.getStreamFrom(key, 0, readAhead);
    } catch (e) {
      if (isMissing(e)) return missingBundle(cacheKey);
      throw e;
    }
    return new Promise((resolve, reject) => {
      // Grown as bytes come (a bundle is often far smaller than the read-ahead).
      let bytes = Buffer.allocUnsafe(Math.min(readAhead, FIRST_BUFFER_BYTES));
      let got = 0;
      let index: BundleIndex | undefined;
      /** Slots holding a tile, by their record's offset, and the next one to keep. */
      let order: number[] = [];
      let next = 0;
      let waiters: { end: number; wake: (arrived: boolean) => void }[] = [];
      const own: Arriving = {
        until: (end) =>
          end <= got ? Promise.resolve(true) : new Promise((wake) => waiters.push({ end, wake })),
      };
      const keepArrived = (index: BundleIndex) => {
        for (; next < order.length; next++) {
          const slot = order[next];
          const size = index.sizes[slot];
          const start = index.offsets[slot] - 4;
          if (start + size + 4 > got) break;
          keepTile(bundle, slot, bytes.subarray(start, start + size + 4), size);
        }
        if (waiters.length === 0) return;
        waiters = waiters.filter((w) => {
          if (w.end > got) return true;
          w.wake(true);
          return false;
        });
      };
      stream.on('data', (chunk: Buffer) => {
        const n = Math.min(chunk.length, readAhead - got);
        if (got + n > bytes.length) {
          const grown = Buffer.allocUnsafe(Math.min(readAhead, Math.max(2 * bytes.length, got + n)));
          bytes.copy(grown, 0, 0, got);
          bytes = grown;
        }
        chunk.copy(bytes, got, 0, n);
        got += n;
        if (!index && got >= BUNDLE_FIXED_SIZE) {
          try {
            index = parseBundleIndex(bytes.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
          } catch (e) {
            stream.destroy();
            reject(e);
            return;
          }
          order = recordOrder(index);
          indexes.set(cacheKey, index);
          arriving.set(cacheKey, own);
          resolve(index);
        }
        if (index) keepArrived(index);
      });
      finished(stream, (err) => {
        if (arriving.get(cacheKey) === own) arriving.delete(cacheKey);
        for (const w of waiters) w.wake(false);
        waiters = [];
        if (index) return;
        if (err) reject(err);
        else {
          // Shorter than a bundle's header and index: the index read's own error for it.
          try {
            parseBundleIndex(bytes.subarray(BUNDLE_HEADER_SIZE, Math.max(got, BUNDLE_HEADER_SIZE)));
          } catch (e) {
            reject(e);
          }
        }
      });
    });
  }

  /** Keeps one tile read ahead, when its record is what the index says it is. */
  function keepTile(
    { at, level, row0, col0 }: BundleAt,
    slot: number,
    record: Uint8Array,
    size: number,
  ): void {
    const tile = tileOfRecord(record, size);
    if (!tile) return;
    const tileKey = keyOf(at, {
      level,
      row: row0 + Math.floor(slot / BUNDLE_DIM),
      col: col0 + (slot % BUNDLE_DIM),
    });
    // A copy of its own, so the bound counts what is held and the read's buffer can go.
    if (tiles.get(tileKey) === undefined) tiles.set(tileKey, new Uint8Array(tile), size + ABSENT_WEIGHT);
  }

  const keyOf = (at: TileLocation, tile: TileAddress) =>
    `${at.serviceItemId}/${at.generation ?? 0}/${tile.level}/${tile.row}/${tile.col}`;

  function peek(key: string): Uint8Array | null | undefined {
    const hit = tiles.get(key);
    if (hit === undefined || hit instanceof Uint8Array) return hit;
    if (hit.until > now()) return null;
    tiles.delete(key);
    return undefined;
  }

  async function fetchTile(tileCacheKey: string, at: TileLocation, tile: TileAddress) {
    let bytes: Uint8Array | undefined;
    let absentUntil = now() + missingTtl;
    if (at.storage === 'exploded') {
      locate(at);
      bytes = await getOrMissing(store, explodedKey(at.serviceItemId, tile, at.extension ?? 'png'));
    } else {
      const key = bundleKey(at.serviceItemId, tile.level, tile.row, tile.col);
      const indexKey = `${at.serviceItemId}/${at.generation ?? 0}/${key}`;
      const bundle = { at, level: tile.level, ...bundleOrigin(tile.row, tile.col) };
      let index = await bundleIndex(indexKey, key, bundle);
      // Read ahead with the index, or by a read of the same bundle's index just before … (brought in for
      // this very read: its first use, as a tile read alone is set, unmarked).
      let kept = tiles.peek(tileCacheKey);
      if (kept instanceof Uint8Array) return kept;
      // … or still arriving with it.
      const entry = typeof index === 'number' ? undefined : tileEntry(index, tile.row, tile.col);
      const coming = entry && entry.offset + entry.size <= readAhead ? arriving.get(indexKey) : undefined;
      if (coming && entry && (await coming.until(entry.offset + entry.size))) {
        kept = tiles.peek(tileCacheKey);
        if (kept instanceof Uint8Array) return kept;
      }
      let read = typeof index === 'number' ? undefined : await readRecord(key, index, tile);
      if (read === MOVED) {
        // Drop the index only if no other read has replaced it already, then read it once more.
        if (indexes.get(indexKey) === index) indexes.delete(indexKey);
        index = await bundleIndex(indexKey, key, bundle);
        read = typeof index === 'number' ? undefined : await readRecord(key, index, tile);
        if (read === MOVED)
          throw new Error(`Tile ${tile.row}/${tile.col} does not match the index of ${key}.`);
      }
      // A bundle's index is read whole: what it lacks stays absent for the generation.
      absentUntil = typeof index === 'number' ? index : Number.POSITIVE_INFINITY;
      bytes = read;
    }
    // Small reads may be views into a shared pool buffer: keep an exact copy so the bound holds.
    if (bytes && bytes.byteLength !== bytes.buffer.byteLength) bytes = new Uint8Array(bytes);
    if (bytes) tiles.set(tileCacheKey, bytes, bytes.length + ABSENT_WEIGHT);
    else tiles.set(tileCacheKey, { until: absentUntil }, ABSENT_WEIGHT);
    return bytes;
  }

  /** The tile's bytes as `index` places them, undefined when it has none, MOVED when they are not there. */
  async function readRecord(
    key: string,
    index: BundleIndex,
    tile: TileAddress,
  ): Promise<Uint8Array | undefined | typeof MOVED> {
    const entry = tileEntry(index, tile.row, tile.col);
    if (!entry) return undefined;
    const range = tileRecordRange(entry);
    const record = range && (await rangeOrMissing(store, key, range.offset, range.length));
    return (record && tileOfRecord(record, entry.size)) ?? MOVED;
  }

  function readTile(at: TileLocation, tile: TileAddress): Promise<Uint8Array | undefined> {
    const tileCacheKey = keyOf(at, tile);
    const known = peek(tileCacheKey);
    if (known !== undefined) return Promise.resolve(known ?? undefined);
    let pending = pendingTiles.get(tileCacheKey);
    if (!pending) {
      pending = fetchTile(tileCacheKey, at, tile).finally(() => pendingTiles.delete(tileCacheKey));
      pendingTiles.set(tileCacheKey, pending);
    }
    return pending;
  }

  function held(): HeldTiles[] {
    const found = new Map<string, HeldTiles>();
    for (const [key, value] of tiles.byUse()) {
      if (!(value instanceof Uint8Array)) continue;
      // `{serviceItemId}/{generation}/{level}/{row}/{col}`
      const c = key.lastIndexOf('/');
      const r = key.lastIndexOf('/', c - 1);
      const l = key.lastIndexOf('/', r - 1);
      const at = locations.get(key.slice(0, l));
      if (!at) continue;
      const level = Number(key.slice(l + 1, r));
      const row = Number(key.slice(r + 1, c));
      const col = Number(key.slice(c + 1));
      const exploded = at.storage === 'exploded';
      const { row0, col0 } = exploded ? { row0: row, col0: col } : bundleOrigin(row, col);
      const id = `${key.slice(0, l)}/${level}/${row0}/${col0}`;
      let entry = found.get(id);
      if (!entry) {
        entry = { at, level, row: row0, col: col0, bytes: 0, ...(exploded ? {} : { slots: [] }) };
        found.set(id, entry);
      }
      entry.bytes += value.byteLength;
      entry.slots?.push(tileIndexInBundle(row, col));
    }
    const all = [...found.values()];
    for (const h of all) h.slots?.sort((a, b) => a - b);
    return all;
  }

  async function warm({ at, level, row, col, slots }: HeldTiles): Promise<void> {
    if (at.storage === 'exploded') {
      await readTile(at, { level, row, col });
      return;
    }
    const key = bundleKey(at.serviceItemId, level, row, col);
    const indexKey = `${at.serviceItemId}/${at.generation ?? 0}/${key}`;
    const bundle = { at, level, row0: row, col0: col };
    const index = await bundleIndex(indexKey, key, bundle);
    await arriving.get(indexKey)?.until(readAhead);
    if (typeof index === 'number' || !slots) return;
    const tileKeyOf = (slot: number) =>
      keyOf(at, { level, row: row + Math.floor(slot / BUNDLE_DIM), col: col + (slot % BUNDLE_DIM) });
    // The held tiles the read-ahead did not bring (a bundle larger than it), read in ranges of records
    // no further apart than WARM_GAP_BYTES, each record checked as a tile read checks it.
    const missing = slots
      .filter(
        (slot) =>
          index.sizes[slot] > 0 && index.offsets[slot] >= 4 && tiles.peek(tileKeyOf(slot)) === undefined,
      )
      .sort((a, b) => index.offsets[a] - index.offsets[b]);
    for (let i = 0; i < missing.length; ) {
      const start = index.offsets[missing[i]] - 4;
      let end = index.offsets[missing[i]] + index.sizes[missing[i]];
      let j = i + 1;
      while (j < missing.length && index.offsets[missing[j]] - 4 - end <= WARM_GAP_BYTES) {
        end = Math.max(end, index.offsets[missing[j]] + index.sizes[missing[j]]);
        j++;
      }
      const bytes = await rangeOrMissing(store, key, start, end - start);
      if (!bytes) break;
      for (const slot of missing.slice(i, j)) {
        const from = index.offsets[slot] - 4 - start;
        keepTile(bundle, slot, bytes.subarray(from, from + index.sizes[slot] + 4), index.sizes[slot]);
      }
      i = j;
    }
    // The held tiles count as used: where memory fills up, what the read-ahead brought beside them goes
    // first, not the tiles of the bundles warmed before this one (the most used).
    for (const slot of slots) tiles.get(tileKeyOf(slot));
  }

  return {
    get indexFetches() {
      return indexFetches;
    },
    held,
    warm,
    peekTile: (at, tile) => peek(keyOf(at, tile)),
    watchTile(at, tile, bytes) {
      const entry = tiles.watch(keyOf(at, tile));
      if (entry?.value !== bytes) return undefined;
      return () => {
        if (entry.gone) return false;
        entry.used = true;
        return true;
      };
    },
    readTile,
    async bundleSizes(at, level, row0, col0) {
      const key = bundleKey(at.serviceItemId, level, row0, col0);
      const bundle = { at, level, ...bundleOrigin(row0, col0) };
      const index = await bundleIndex(`${at.serviceItemId}/${at.generation ?? 0}/${key}`, key, bundle);
      return typeof index === 'number' ? undefined : index.sizes;
    },
    forget(serviceItemId) {
      indexes.deletePrefix(`${serviceItemId}/`);
      tiles.deletePrefix(`${serviceItemId}/`);
      for (const k of [...locations.keys()]) if (k.startsWith(`${serviceItemId}/`)) locations.delete(k);
    },
  };
}

async function rangeOrMissing(
  store: ObjectStore,
  key: string,
  offset: number,
  length: number,
): Promise<Buffer | undefined> {
  try {
    return await store.getRange(key, offset, length);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

async function getOrMissing(store: ObjectStore, key: string): Promise<Buffer | undefined> {
  try {
    return await store.getBuffer(key);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

function isMissing(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'InvalidRange';
}
