/** Tile cache services and the finished bundles of their builds. */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.js';
import { tileCacheBundles, tileCaches } from '../schema/tile-caches.js';

export type TileCacheRow = typeof tileCaches.$inferSelect;
export type NewTileCache = typeof tileCaches.$inferInsert;
export type TileServiceType = 'MapServer' | 'VectorTileServer';

export async function insertTileCache(db: Database, row: NewTileCache): Promise<void> {
  await db.insert(tileCaches).values(row);
}

export async function findTileCache(db: Database, serviceItemId: string): Promise<TileCacheRow | undefined> {
  const rows = await db.select().from(tileCaches).where(eq(tileCaches.serviceItemId, serviceItemId)).limit(1);
  return rows[0];
}

/** Names are unique per service type regardless of case, as on ArcGIS Server. */
export async function findTileCacheByName(
  db: Database,
  serviceType: TileServiceType,
  name: string,
): Promise<TileCacheRow | undefined> {
  const rows = await db
    .select()
    .from(tileCaches)
    .where(
      and(eq(tileCaches.serviceType, serviceType), sql`lower(${tileCaches.name}) = ${name.toLowerCase()}`),
    )
    .limit(1);
  return rows[0];
}

/** The caches drawn from a feature service: what an edit of its data invalidates. */
export async function tileCachesOfSource(db: Database, sourceServiceItemId: string): Promise<TileCacheRow[]> {
  return db.select().from(tileCaches).where(eq(tileCaches.sourceServiceItemId, sourceServiceItemId));
}

/**
 * The caches drawn from a source that its edits must refresh: all but those whose build failed. A failed
 * cache is not served, and the rebuild that revives it draws everything from the source as it then is.
 */
export async function refreshableCachesOfSource(
  db: Database,
  sourceServiceItemId: string,
): Promise<string[]> {
  const caches = await tileCachesOfSource(db, sourceServiceItemId);
  return caches.filter((c) => c.status !== 'failed').map((c) => c.serviceItemId);
}

export async function updateTileCache(
  db: Database,
  serviceItemId: string,
  changes: Partial<NewTileCache>,
): Promise<void> {
  await db.update(tileCaches).set(changes).where(eq(tileCaches.serviceItemId, serviceItemId));
}

/** `updateTileCache` only while the cache is at `generation`: false when a reset moved it on (or it is gone). */
export async function updateTileCacheAt(
  db: Database,
  serviceItemId: string,
  generation: number,
  changes: Partial<NewTileCache>,
): Promise<boolean> {
  const rows = await db
    .update(tileCaches)
    .set(changes)
    .where(and(eq(tileCaches.serviceItemId, serviceItemId), eq(tileCaches.generation, generation)))
    .returning({ generation: tileCaches.generation });
  return rows.length > 0;
}

/**
 * Begins a full rebuild: the next generation, status building, in one update of the cache's row. The
 * update waits for every write under way in `writeAtGeneration`, and no write of an older generation
 * starts after it, so once this returns the old generation's objects can be removed for good.
 * Returns the new generation, or undefined when the cache is gone.
 */
export async function beginRebuild(
  db: Database,
  serviceItemId: string,
  modified: number,
): Promise<number | undefined> {
  const rows = await db
    .update(tileCaches)
    .set({ generation: sql`${tileCaches.generation} + 1`, status: 'building', modified })
    .where(eq(tileCaches.serviceItemId, serviceItemId))
    .returning({ generation: tileCaches.generation });
  return rows[0]?.generation;
}

/**
 * Runs `write` (object-store writes of one generation, and their records through `tx`) while the cache
 * is at `generation`, holding a share lock on its row throughout: writers of one generation run side by
 * side, a rebuild's `beginRebuild` waits until they are done, and a write that would start after it is
 * not run (undefined). A writer that dies releases the lock with its connection.
 */
export async function writeAtGeneration<T>(
  db: Database,
  serviceItemId: string,
  generation: number,
  write: (tx: Database) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ generation: tileCaches.generation })
      .from(tileCaches)
      .where(eq(tileCaches.serviceItemId, serviceItemId))
      .for('share');
    if (rows[0]?.generation !== generation) return undefined;
    return write(tx);
  });
}

export async function deleteTileCache(db: Database, serviceItemId: string): Promise<void> {
  await db.delete(tileCaches).where(eq(tileCaches.serviceItemId, serviceItemId));
}

export interface BundleRecord {
  level: number;
  row0: number;
  col0: number;
  tileCount: number;
  bytes: number;
}

/** Records a finished bundle; recording it again (a retried activity) keeps the first record. */
export async function recordBundle(
  db: Database,
  serviceItemId: string,
  generation: number,
  b: BundleRecord,
): Promise<void> {
  await db
    .insert(tileCacheBundles)
    .values({ serviceItemId, generation, ...b })
    .onConflictDoNothing();
}

export async function findBundle(
  db: Database,
  serviceItemId: string,
  generation: number,
  level: number,
  row0: number,
  col0: number,
): Promise<BundleRecord | undefined> {
  const rows = await db
    .select()
    .from(tileCacheBundles)
    .where(
      and(
        eq(tileCacheBundles.serviceItemId, serviceItemId),
        eq(tileCacheBundles.generation, generation),
        eq(tileCacheBundles.level, level),
        eq(tileCacheBundles.row0, row0),
        eq(tileCacheBundles.col0, col0),
      ),
    )
    .limit(1);
  const r = rows[0];
  return r && { level: r.level, row0: r.row0, col0: r.col0, tileCount: r.tileCount, bytes: r.bytes };
}

/** Finished bundles and tiles of one build generation. */
export async function bundleTotals(
  db: Database,
  serviceItemId: string,
  generation: number,
): Promise<{ bundles: number; tiles: number; bytes: number }> {
  const rows = await db
    .select({
      bundles: sql<number>`count(*)::int`,
      tiles: sql<number>`coalesce(sum(${tileCacheBundles.tileCount}), 0)::bigint`,
      bytes: sql<number>`coalesce(sum(${tileCacheBundles.bytes}), 0)::bigint`,
    })
    .from(tileCacheBundles)
    .where(
      and(eq(tileCacheBundles.serviceItemId, serviceItemId), eq(tileCacheBundles.generation, generation)),
    );
  const r = rows[0];
  return { bundles: Number(r?.bundles ?? 0), tiles: Number(r?.tiles ?? 0), bytes: Number(r?.bytes ?? 0) };
}

/** Forgets the finished bundles of older generations (their objects are gone with the prefix). */
export async function dropBundleRecords(db: Database, serviceItemId: string): Promise<void> {
  await db.delete(tileCacheBundles).where(eq(tileCacheBundles.serviceItemId, serviceItemId));
}

/**
 * Moves a cache to the next generation in one transaction after an area refresh: the refreshed
 * bundles' records take their new counts, every record moves to the new generation, and the row takes
 * the new generation, tile count and `changes`. Returns false (and changes nothing) when the cache is
 * no longer at `fromGeneration` (a full rebuild reset it meanwhile) or is gone.
 */
export async function advanceGeneration(
  db: Database,
  serviceItemId: string,
  fromGeneration: number,
  refreshed: readonly BundleRecord[],
  changes: Partial<NewTileCache>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ generation: tileCaches.generation })
      .from(tileCaches)
      .where(eq(tileCaches.serviceItemId, serviceItemId))
      .for('update');
    if (rows[0]?.generation !== fromGeneration) return false;
    for (const b of refreshed) {
      await tx
        .insert(tileCacheBundles)
        .values({ serviceItemId, generation: fromGeneration, ...b })
        .onConflictDoUpdate({
          target: [
            tileCacheBundles.serviceItemId,
            tileCacheBundles.generation,
            tileCacheBundles.level,
            tileCacheBundles.row0,
            tileCacheBundles.col0,
          ],
          set: { tileCount: b.tileCount, bytes: b.bytes },
        });
    }
    const next = fromGeneration + 1;
    await tx
      .update(tileCacheBundles)
      .set({ generation: next })
      .where(
        and(
          eq(tileCacheBundles.serviceItemId, serviceItemId),
          eq(tileCacheBundles.generation, fromGeneration),
        ),
      );
    const totals = await tx
      .select({ tiles: sql<number>`coalesce(sum(${tileCacheBundles.tileCount}), 0)::bigint` })
      .from(tileCacheBundles)
      .where(and(eq(tileCacheBundles.serviceItemId, serviceItemId), eq(tileCacheBundles.generation, next)));
    await tx
      .update(tileCaches)
      .set({ ...changes, generation: next, tileCount: Number(totals[0]?.tiles ?? 0) })
      .where(eq(tileCaches.serviceItemId, serviceItemId));
    return true;
  });
}
