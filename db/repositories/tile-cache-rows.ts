/**
 * Tile cache rows by service name, remembered briefly: map clients ask for tiles by the hundred, and the
 * REST tile routes, the lean tile path and SOAP all look caches up through the app's one TileCacheRows.
 */
import { createTtlMemo, type MemoWatch } from '../../lib/ttl-memo.js';
import type { Database } from '../client.js';
import { findTileCacheByName, type TileCacheRow, type TileServiceType } from './tile-caches.js';

/** Rows looked up by name stay this long: a rebuild (new generation) shows within this time. */
export const ROW_TTL_MS = 2_000;

export interface TileCacheRows {
  (db: Database, serviceType: TileServiceType, name: string): Promise<TileCacheRow | undefined>;
  /** The row when it has been read and is still fresh, synchronously; otherwise undefined. */
  known(serviceType: TileServiceType, name: string): TileCacheRow | undefined;
  /** `known` with a check that it is still the row (lib/ttl-memo.ts `watch`): for the socket front's replays. */
  watching(serviceType: TileServiceType, name: string): MemoWatch<TileCacheRow> | undefined;
}

/**
 * Cache rows by service name, each kept `ttlMs`; concurrent first requests share one query. A missing
 * or failed cache is undefined (and not remembered, so a new publish shows at once).
 */
export function createTileCacheRows({
  ttlMs = ROW_TTL_MS,
  maxEntries = 1000,
  now = Date.now,
}: {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
} = {}): TileCacheRows {
  const memo = createTtlMemo<TileCacheRow | undefined>({ ttlMs, maxEntries, now, keep: (row) => !!row });
  const keyOf = (serviceType: TileServiceType, name: string) => `${serviceType}/${name.toLowerCase()}`;
  const rows = (db: Database, serviceType: TileServiceType, name: string) =>
    memo.get(keyOf(serviceType, name), async () => {
      const cache = await findTileCacheByName(db, serviceType, name);
      return cache && cache.status !== 'failed' ? cache : undefined;
    });
  const known = (serviceType: TileServiceType, name: string) => memo.peek(keyOf(serviceType, name))?.value;
  const watching = (serviceType: TileServiceType, name: string) => {
    const watch = memo.watch(keyOf(serviceType, name));
    return watch?.value ? (watch as MemoWatch<TileCacheRow>) : undefined;
  };
  return Object.assign(rows, { known, watching });
}
