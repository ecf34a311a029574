/**
 * The tile memory carried over a restart. A static file server restarted still finds its tiles in the
 * operating system's page cache; an API process's tile memory (tile-cache-store.ts) goes with the process,
 * and a fresh process's first second is spent reading bundles from the object store while every request
 * for one of them waits (bench/README.md, tiles: the cold tail). So each API process records which bundles
 * (and exploded tiles) its memory holds, the most used first, in an object of its own: every minute while
 * it has changed, and when the process stops. A starting process reads the records of the processes before
 * it and reads those bundles into its memory before it listens, up to its memory's bound and for at most
 * `TILE_WARM_START_SECONDS`.
 *
 * A record names each bundle with its cache's generation and storage; what a rebuild, a delete or a
 * failed build has made stale is left out by checking each cache's row first. Records older than a day
 * are not read and are removed.
 */
import { hostname } from 'node:os';
import type { Database } from '../db/client.js';
import { findTileCache } from '../db/repositories/tile-caches.js';
import type { CacheStorage } from '../lib/tiles/cache-definition.js';
import { BUNDLE_DIM } from '../lib/tiles/compact-bundle.js';
import type { Logger } from './logger.js';
import type { ObjectStore } from './object-store.js';
import type { Runtime } from './runtime.js';
import type { HeldTiles, TileCacheReader } from './tile-cache-store.js';

export const TILE_MEMORY_PREFIX = 'system/tile-memory/';
/** A record this old belongs to a process long gone: not read, and removed. */
export const RECORD_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/**
 * The most records kept: the newest, one per process start. Older ones are removed by the next start
 * that reads them (a fleet restarting often would otherwise read a record per start of the day).
 */
export const RECORDS_KEPT = 32;
/** A running process writes its record this often, when its memory changed. */
export const RECORD_EVERY_MS = 60_000;
/** Bundles read at once while warming. */
const WARM_CONCURRENCY = 4;

/** One process's record, as stored (JSON). */
interface TileMemoryRecord {
  version: 1;
  /** ms since the epoch */
  written: number;
  held: {
    serviceItemId: string;
    generation: number;
    storage: CacheStorage;
    extension?: string;
    level: number;
    row: number;
    col: number;
    bytes: number;
    /** A compact bundle's held slots as runs, [first, last] each. */
    slots?: [number, number][];
  }[];
}

/** This process's record: host and pid, so processes of several hosts sharing a bucket keep their own. */
export const tileMemoryKey = (name = `${hostname()}-${process.pid}`): string =>
  `${TILE_MEMORY_PREFIX}${encodeURIComponent(name)}.json`;

export interface TileMemoryRecorder {
  /** Writes the record now, unless it would say what the last one said. */
  write(): Promise<void>;
  /** Stops the timer and writes a last record. */
  stop(): Promise<void>;
}

/** Records what `reader` holds every `everyMs` (an unreferenced timer) under `key`. */
export function recordTileMemory(
  store: ObjectStore,
  reader: TileCacheReader,
  {
    key = tileMemoryKey(),
    maxBytes,
    everyMs = RECORD_EVERY_MS,
    now = Date.now,
    log,
  }: { key?: string; maxBytes: number; everyMs?: number; now?: () => number; log: Logger },
): TileMemoryRecorder {
  let last = '';
  let writing: Promise<void> = Promise.resolve();
  const writeNow = async () => {
    const held = withinBytes(reader.held(), maxBytes).map(({ at, level, row, col, bytes, slots }) => ({
      serviceItemId: at.serviceItemId,
      generation: at.generation ?? 0,
      storage: at.storage,
      ...(at.extension ? { extension: at.extension } : {}),
      level,
      row,
      col,
      bytes,
      ...(slots ? { slots: runsOf(slots) } : {}),
    }));
    const said = JSON.stringify(held);
    if (said === last || (held.length === 0 && last === '')) return;
    const record: TileMemoryRecord = { version: 1, written: now(), held };
    await store.put(key, JSON.stringify(record), undefined, 'application/json');
    last = said;
  };
  // One write at a time, each after the one before.
  const write = () => {
    writing = writing
      .then(writeNow)
      .catch((err: unknown) => log.warn('could not record the tile memory', { err }));
    return writing;
  };
  const timer = setInterval(write, everyMs);
  timer.unref();
  return {
    write,
    stop() {
      clearInterval(timer);
      return write();
    },
  };
}

export interface WarmStart {
  /** Records read. */
  records: number;
  /** Bundles and exploded tiles read into memory. */
  read: number;
  /** Bytes the records said those held. */
  bytes: number;
  /** Named by a record but left out: their cache is gone, rebuilt or failed, or the bound was reached. */
  skipped: number;
  ms: number;
}

/**
 * Reads into `reader` what the recent records name, the most used first and taking each record in turn,
 * up to `maxBytes` and until `deadlineMs` has passed (what is still being read then goes on without
 * being waited for). Never throws: a process that cannot warm starts cold.
 */
export async function warmTileMemory(
  store: ObjectStore,
  db: Database,
  reader: TileCacheReader,
  {
    maxBytes,
    deadlineMs,
    now = Date.now,
    log,
  }: { maxBytes: number; deadlineMs: number; now?: () => number; log: Logger },
): Promise<WarmStart> {
  const started = now();
  const result: WarmStart = { records: 0, read: 0, bytes: 0, skipped: 0, ms: 0 };
  try {
    const records = await readRecords(store, now(), log);
    result.records = records.length;
    const candidates = interleave(records);
    const wanted = await current(db, candidates);
    const chosen = withinBytes(wanted, maxBytes);
    result.skipped = candidates.length - chosen.length;
    const deadline = started + deadlineMs;
    let next = 0;
    const readNext = async (): Promise<void> => {
      while (next < chosen.length && now() < deadline) {
        const held = chosen[next++];
        await reader.warm(held);
        result.read++;
        result.bytes += held.bytes;
      }
    };
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadline - now()));
    });
    const reading = Promise.all(Array.from({ length: WARM_CONCURRENCY }, readNext));
    await Promise.race([reading, timeUp]).finally(() => clearTimeout(timer));
    reading.catch((err: unknown) => log.warn('could not read a recorded bundle', { err }));
    result.skipped += chosen.length - next;
  } catch (err) {
    log.warn('could not warm the tile memory', { err });
  }
  result.ms = now() - started;
  return result;
}

/**
 * The newest RECORDS_KEPT records written within RECORD_MAX_AGE_MS, newest first; older ones, and
 * unreadable ones, are removed.
 */
async function readRecords(store: ObjectStore, at: number, log: Logger): Promise<TileMemoryRecord[]> {
  const records: (TileMemoryRecord & { key: string })[] = [];
  for (const key of await store.list(TILE_MEMORY_PREFIX)) {
    let record: TileMemoryRecord | undefined;
    try {
      record = parseRecord(JSON.parse((await store.getBuffer(key)).toString('utf8')));
    } catch (err) {
      log.warn('unreadable tile memory record', { key, err });
    }
    if (!record || at - record.written > RECORD_MAX_AGE_MS) {
      await store.remove(key);
      continue;
    }
    records.push({ ...record, key });
  }
  records.sort((a, b) => b.written - a.written);
  for (const { key } of records.splice(RECORDS_KEPT)) await store.remove(key);
  return records;
}

/** A record as written by `recordTileMemory`, or undefined for anything else. */
function parseRecord(value: unknown): TileMemoryRecord | undefined {
  const r = value as TileMemoryRecord;
  if (r?.version !== 1 || typeof r.written !== 'number' || !Array.isArray(r.held)) return undefined;
  const storages: CacheStorage[] = ['compactV2', 'compactV1', 'exploded'];
  const whole = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const valid = r.held.every(
    (h) =>
      typeof h?.serviceItemId === 'string' &&
      storages.includes(h.storage) &&
      (h.extension === undefined || typeof h.extension === 'string') &&
      [h.generation, h.level, h.row, h.col, h.bytes].every(whole) &&
      (h.slots === undefined ||
        (Array.isArray(h.slots) &&
          h.slots.every(
            (run) =>
              Array.isArray(run) &&
              run.length === 2 &&
              run.every(whole) &&
              run[0] <= run[1] &&
              run[1] < BUNDLE_DIM * BUNDLE_DIM,
          ))),
  );
  return valid ? r : undefined;
}

/**
 * The records' entries taken in turn (each record's most used first), each bundle once, as the newest
 * record holding it says (an older process may have held fewer or other tiles of it).
 */
function interleave(records: TileMemoryRecord[]): HeldTiles[] {
  type Recorded = TileMemoryRecord['held'][number];
  const idOf = (h: Recorded) => `${h.serviceItemId}/${h.generation}/${h.level}/${h.row}/${h.col}`;
  const newest = new Map<string, Recorded>();
  for (const { held } of records) for (const h of held) if (!newest.has(idOf(h))) newest.set(idOf(h), h);
  const out: HeldTiles[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...records.map((r) => r.held.length));
  for (let i = 0; i < longest; i++) {
    for (const { held } of records) {
      const id = held[i] && idOf(held[i]);
      if (!id || seen.has(id)) continue;
      seen.add(id);
      const h = newest.get(id) as Recorded;
      out.push({
        at: {
          serviceItemId: h.serviceItemId,
          generation: h.generation,
          storage: h.storage,
          ...(h.extension ? { extension: h.extension } : {}),
        },
        level: h.level,
        row: h.row,
        col: h.col,
        bytes: h.bytes,
        ...(h.slots ? { slots: h.slots.flatMap(([first, last]) => range(first, last)) } : {}),
      });
    }
  }
  return out;
}

/** Those whose cache is still there, not failed, at the recorded generation and storage. */
async function current(db: Database, held: HeldTiles[]): Promise<HeldTiles[]> {
  const ids = [...new Set(held.map((h) => h.at.serviceItemId))];
  const rows = new Map(await Promise.all(ids.map(async (id) => [id, await findTileCache(db, id)] as const)));
  return held.filter(({ at }) => {
    const row = rows.get(at.serviceItemId);
    return (
      row !== undefined &&
      row.status !== 'failed' &&
      row.generation === at.generation &&
      row.definition.storage === at.storage
    );
  });
}

/** Ascending slots as runs of consecutive ones, [first, last] each. */
function runsOf(slots: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const slot of slots) {
    const last = runs[runs.length - 1];
    if (last && slot === last[1] + 1) last[1] = slot;
    else runs.push([slot, slot]);
  }
  return runs;
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

/** The leading entries whose bytes together stay within `maxBytes`. */
function withinBytes(held: HeldTiles[], maxBytes: number): HeldTiles[] {
  let total = 0;
  const out: HeldTiles[] = [];
  for (const h of held) {
    if (total + h.bytes > maxBytes) break;
    total += h.bytes;
    out.push(h);
  }
  return out;
}

/**
 * A starting API process's warm start: reads what the records name into `reader` (for at most the
 * configured `tileWarmStartMs`; 0: neither warm nor record), then records its memory from now on. The
 * answer's `stop` writes a last record, waiting for it at most `STOP_WRITE_MS`.
 */
export async function carryTileMemory(
  runtime: Pick<Runtime, 'store' | 'apiDatabase' | 'config' | 'log'>,
  reader: TileCacheReader,
): Promise<{ stop(): Promise<void> }> {
  const { store, log } = runtime;
  const { tileMemoryCacheBytes: maxBytes, tileWarmStartMs } = runtime.config;
  if (tileWarmStartMs === 0 || maxBytes === 0) return { stop: async () => {} };
  const warmed = await warmTileMemory(store, runtime.apiDatabase.db, reader, {
    maxBytes,
    deadlineMs: tileWarmStartMs,
    log,
  });
  if (warmed.records > 0) log.info('tile memory carried over', { ...warmed });
  const recorder = recordTileMemory(store, reader, { maxBytes, log });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_WRITE_MS);
        void recorder.stop().finally(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/** How long a stopping process waits for its last record to be written. */
export const STOP_WRITE_MS = 2_000;
