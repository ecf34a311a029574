/**
 * Objects in the bucket that nothing will remove: a process killed at the wrong moment leaves them.
 *
 * - `publish/{jobId}/…` of no job: a publish upload is staged under the id its job will have
 *   (api/upload-routes.ts) and removed when the request ends unless the job's row is written; a process
 *   killed between the two leaves the object. So does one killed while deleting a service, between its job
 *   rows and their objects. A job's objects live as long as its row, and are removed with its service.
 * - `analyze/{id}/…`: an analyze call removes its objects when it answers; a process killed before that
 *   leaves them.
 * - `items/{id}/…` of no item: addItem stages its file under the new item's id as it arrives
 *   (api/upload-routes.ts) and writes the item's row once the body is read; a process killed between the
 *   two leaves the object. An item's objects are removed with it.
 *
 * Every API process removes such prefixes once their newest object is an hour old, at its start and every
 * hour. An object is written moments before its job's row (in the same request), and an analyze call
 * answers within its parse timeout (its objects are kept twice that, if longer than an hour), so nothing a
 * live request or job still needs is that old; processes sweeping the same bucket at once remove the same
 * prefixes, which is harmless.
 */
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { items } from '../db/schema/items.js';
import { publishJobs } from '../db/schema/publishing.js';
import type { ObjectStore } from '../infra/object-store.js';

/** A prefix whose newest object is this old belongs to no live request. */
export const STALE_OBJECT_MS = 60 * 60 * 1000;
/** Job ids looked up per query. */
const IDS_PER_QUERY = 500;

export interface SweptObjects {
  /** `publish/{jobId}/` prefixes of jobs that do not exist, removed. */
  publish: number;
  /** `analyze/{id}/` prefixes, removed. */
  analyze: number;
  /** `items/{id}/` prefixes of items that do not exist, removed. */
  items: number;
}

export interface SweepOptions {
  now?: number;
  /**
   * How old an analyze call's objects must be: at least STALE_OBJECT_MS, and more when the parse timeout
   * lets an analyze call run longer (the caller gives twice its longest run).
   */
  analyzeStaleMs?: number;
}

/** Removes the prefixes above whose newest object was written STALE_OBJECT_MS or more before `now`. */
export async function removeOrphanObjects(
  store: ObjectStore,
  db: Database,
  { now = Date.now(), analyzeStaleMs = STALE_OBJECT_MS }: SweepOptions = {},
): Promise<SweptObjects> {
  const publish = await removeStalePrefixes(
    store,
    'publish/',
    now,
    STALE_OBJECT_MS,
    missingFrom((chunk) =>
      db.select({ id: publishJobs.id }).from(publishJobs).where(inArray(publishJobs.id, chunk)),
    ),
  );
  const analyzeStale = Math.max(STALE_OBJECT_MS, analyzeStaleMs);
  const analyze = await removeStalePrefixes(store, 'analyze/', now, analyzeStale, async (ids) => ids);
  const itemObjects = await removeStalePrefixes(
    store,
    'items/',
    now,
    STALE_OBJECT_MS,
    missingFrom((chunk) => db.select({ id: items.id }).from(items).where(inArray(items.id, chunk))),
  );
  return { publish, analyze, items: itemObjects };
}

/** The ids that `found` (asked IDS_PER_QUERY ids at a time) does not find. */
function missingFrom(found: (ids: string[]) => Promise<{ id: string }[]>) {
  return async (ids: string[]): Promise<string[]> => {
    const known = new Set<string>();
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      for (const r of await found(ids.slice(i, i + IDS_PER_QUERY))) known.add(r.id);
    }
    return ids.filter((id) => !known.has(id));
  };
}

/**
 * The `{root}{id}/` prefixes `orphans` picks (given every id found) whose objects are all stale, removed;
 * answers how many.
 */
async function removeStalePrefixes(
  store: ObjectStore,
  root: string,
  now: number,
  staleMs: number,
  orphans: (ids: string[]) => Promise<string[]>,
): Promise<number> {
  const byId = new Map<string, string[]>();
  for (const key of await store.list(root)) {
    const slash = key.indexOf('/', root.length);
    if (slash <= root.length) continue; // an object right under the root is nobody's: left alone
    const id = key.slice(root.length, slash);
    const keys = byId.get(id);
    if (keys) keys.push(key);
    else byId.set(id, [key]);
  }
  if (byId.size === 0) return 0;
  let removed = 0;
  for (const id of await orphans([...byId.keys()])) {
    if (!(await allStale(store, byId.get(id) ?? [], now - staleMs))) continue;
    await store.removePrefix(`${root}${id}/`);
    removed++;
  }
  return removed;
}

/** True when every object of `keys` (still there) was last written at or before `before`. */
async function allStale(store: ObjectStore, keys: string[], before: number): Promise<boolean> {
  for (const key of keys) {
    const s = await store.stat(key);
    if (s && s.lastModified.getTime() > before) return false;
  }
  return true;
}

interface SweepLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** Sweeps now and every STALE_OBJECT_MS (an unreferenced timer); the answer stops it. */
export function sweepOrphanObjects(
  store: ObjectStore,
  db: Database,
  log: SweepLog,
  analyzeStaleMs = STALE_OBJECT_MS,
): () => void {
  const run = () =>
    removeOrphanObjects(store, db, { analyzeStaleMs }).then(
      (swept) => {
        if (swept.publish + swept.analyze + swept.items > 0)
          log.info('removed orphaned objects', { ...swept });
      },
      (err: unknown) => log.warn('could not sweep orphaned objects', { err }),
    );
  void run();
  const timer = setInterval(run, STALE_OBJECT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
