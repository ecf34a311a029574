/**
 * Tile cache rows by service name, remembered briefly: map clients ask for tiles by the hundred, and the
 * REST tile routes, the lean tile path and SOAP all look caches up through one of these.
 */
import type { Database } from '../client.js';
import { findTileCacheByName, type TileCacheRow, type TileServiceType } from './tile-caches.js';

/** Rows looked up by name stay this long: a rebuild (new generation) shows within this time. */
export const ROW_TTL_MS = 2_000;

export interface TileCacheRows {
  (db: Database, serviceType: TileServiceType, name: string): Promise<TileCacheRow | undefined>;
  /** The row when it has been read and is still fresh, synchronously; otherwise undefined. */
  known(serviceType: TileServiceType, name: string): TileCacheRow | undefined;
}

/**
 * Cache rows by service name, each kept `ttlMs`; concurrent first requests share one query. A missing
 * or failed cache is undefined (and not remembered, so a new publish shows at once).
 */
export function createTileCacheRows(ttlMs = ROW_TTL_MS, maxEntries = 1000): TileCacheRows {
  const byName = new Map<
    string,
    { until: number; row: Promise<TileCacheRow | undefined>; value?: TileCacheRow }
  >();
  const keyOf = (serviceType: TileServiceType, name: string) => `${serviceType}/${name.toLowerCase()}`;
  const rows = (db: Database, serviceType: TileServiceType, name: string) => {
    const key = keyOf(serviceType, name);
    const now = Date.now();
    const hit = byName.get(key);
    if (hit && hit.until > now) return hit.row;
    if (byName.size >= maxEntries) byName.clear();
    const entry: { until: number; row: Promise<TileCacheRow | undefined>; value?: TileCacheRow } = {
      until: now + ttlMs,
      row: findTileCacheByName(db, serviceType, name).then((cache) => {
        if (!cache || cache.status === 'failed') {
          byName.delete(key);
          return undefined;
        }
        entry.value = cache;
        return cache;
      }),
    };
    entry.row.catch(() => byName.delete(key));
    byName.set(key, entry);
    return entry.row;
  };
  const known = (serviceType: TileServiceType, name: string) => {
    const hit = byName.get(keyOf(serviceType, name));
    return hit && hit.until > Date.now() ? hit.value : undefined;
  };
  return Object.assign(rows, { known });
}
