/**
 * The temporary copy of a GeoPackage or SQLite source, shared by the steps of one publish that run
 * in this worker process: planning copies the file from MinIO to read its schema and a sample, and
 * keeps the copy for the load that follows; a load keeps it when a later layer of the job reads the
 * same file. Copying a 168 MB file took 1.4–1.9 s each time (bench/README.md). A copy is kept at
 * most `KEEP_MS` and is taken only while the object still has the size and ETag it had when copied,
 * so a replaced object (an item's file updated) is copied again; a load on another worker copies the
 * file itself. Where the API and a worker share the process (`npm start`, the benches), an uploaded
 * file's own temporary file is kept the same way (keepUploadedCopy), so planning does not copy the
 * object back out of MinIO either: a publish's upload for its planning, an item's file (addItem, update)
 * for analyze, which keeps it again, and for a publish of the item, which takes it over with the item's
 * object copied to the job's (copyObjectWithKept). A large CSV published on PostgreSQL is kept too: its
 * load thread reads the file instead of the object (takeKeptCopy).
 */
import { rmSync } from 'node:fs';
import { link, mkdtemp, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ObjectStore } from '../object-store.js';
import { spoolObject } from './sqlite-pages.js';

export interface Spooled {
  path: string;
  remove(): Promise<void>;
}

interface Kept extends Spooled {
  version: string;
  timer: NodeJS.Timeout;
}

/** How long a kept copy waits for the next step. */
const KEEP_MS = 60_000;

const kept = new Map<string, Kept>();

const versionOf = async (store: ObjectStore, key: string) => {
  const s = await store.stat(key);
  return s ? `${s.size}:${s.etag}` : null;
};

// Kept copies are removed when the process ends normally (a killed worker leaves them, as it
// leaves the copy of the load it was running).
process.once('exit', () => {
  for (const k of kept.values()) rmSync(dirname(k.path), { recursive: true, force: true });
});

/**
 * A copy of the object at `key` for the caller to read and then remove or keep: the copy kept by
 * an earlier step when the object is unchanged, else a new one.
 */
export async function takeSpooled(
  store: ObjectStore,
  key: string,
): Promise<Spooled & { version: string | null; wasKept: boolean }> {
  const version = await versionOf(store, key);
  const k = kept.get(key);
  if (k) {
    kept.delete(key);
    clearTimeout(k.timer);
    if (version !== null && k.version === version)
      return { path: k.path, remove: k.remove, version, wasKept: true };
    await k.remove();
  }
  return { ...(await spoolObject(store, key)), version, wasKept: false };
}

/**
 * The copy kept for the object at `key` (an uploaded file's, keepUploadedCopy) while the object still has
 * the size and ETag it had when kept; undefined when none is (a stale one is removed). Taken: the caller
 * removes it.
 */
export async function takeKeptCopy(store: ObjectStore, key: string): Promise<Spooled | undefined> {
  const k = kept.get(key);
  if (!k) return undefined;
  kept.delete(key);
  clearTimeout(k.timer);
  const version = await versionOf(store, key);
  if (version !== null && k.version === version) return { path: k.path, remove: k.remove };
  await k.remove();
  return undefined;
}

/** Keeps a copy for the next step in this process (`KEEP_MS` at most); without a version it is removed. */
export async function keepSpooled(key: string, spooled: Spooled & { version: string | null }): Promise<void> {
  const before = kept.get(key);
  if (before && before.path !== spooled.path) {
    kept.delete(key);
    clearTimeout(before.timer);
    await before.remove();
  }
  if (spooled.version === null) {
    await spooled.remove();
    return;
  }
  const timer = setTimeout(() => {
    if (kept.get(key)?.path === spooled.path) kept.delete(key);
    void spooled.remove();
  }, KEEP_MS);
  timer.unref();
  kept.set(key, { path: spooled.path, remove: spooled.remove, version: spooled.version, timer });
}

/** Set when a worker runs in this process (createWorker): only then is an uploaded file kept. */
let workerHere = false;

/** This process runs a worker: the uploads its API receives may be kept for that worker's steps. */
export function keepUploadsForThisProcess(): void {
  workerHere = true;
}

/** Whether an upload's file would be kept here (a worker runs in this process). */
export const keepsUploads = (): boolean => workerHere;

/** A kept upload's directory is named so: DATA_DIR/tmp's sweep removes one a killed process left. */
export const KEPT_UPLOAD_PREFIX = 'upload-kept-';

/**
 * Keeps the file an upload was written to while its bytes went to the object at `key` (the same bytes,
 * api/params.ts) as a copy taken by the next step, as planning's own copy would be kept: linked into a
 * directory of its own beside it, so the request's removal of its file leaves the copy. Only when a
 * worker runs in this process; on any failure nothing is kept, and planning copies the object.
 */
export async function keepUploadedCopy(store: ObjectStore, key: string, uploadPath: string): Promise<void> {
  if (!workerHere) return;
  const dir = await mkdtemp(join(dirname(uploadPath), KEPT_UPLOAD_PREFIX)).catch(() => null);
  if (!dir) return;
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const path = join(dir, 'source.db');
    await link(uploadPath, path);
    await keepSpooled(key, { path, remove, version: await versionOf(store, key) });
  } catch {
    await remove();
  }
}

/** The 16 bytes every SQLite database (GeoPackages included) starts with. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Whether the file at `path` is an SQLite database (by its header). */
export async function isSqliteFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_HEADER);
  } finally {
    await handle.close();
  }
}

/**
 * Copies the object at `from` (an item's file) to `to` in the store, and hands the copy kept for `from`
 * over to `to`. A server-side copy of an object stored in parts gets an ETag of its own, so the bytes are
 * known to be the kept ones when `from` has the kept size and ETag both before and after the copy; a file
 * replaced meanwhile, or a kept copy taken meanwhile, leaves nothing carried (the stale one removed).
 */
export async function copyObjectWithKept(store: ObjectStore, from: string, to: string): Promise<void> {
  const k = kept.get(from);
  const before = k ? await versionOf(store, from).catch(() => null) : null;
  await store.copy(from, to);
  if (!k || kept.get(from) !== k) return;
  kept.delete(from);
  clearTimeout(k.timer);
  const [after, copied] = await Promise.all([
    versionOf(store, from).catch(() => null),
    versionOf(store, to).catch(() => null),
  ]);
  if (before === k.version && after === k.version && copied !== null) {
    await keepSpooled(to, { path: k.path, remove: k.remove, version: copied });
  } else {
    await k.remove();
  }
}
