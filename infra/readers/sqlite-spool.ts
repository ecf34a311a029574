/**
 * The temporary copy of a GeoPackage or SQLite source, shared by the steps of one publish that run
 * in this worker process: planning copies the file from MinIO to read its schema and a sample, and
 * keeps the copy for the load that follows; a load keeps it when a later layer of the job reads the
 * same file. Copying a 168 MB file took 1.4–1.9 s each time (bench/README.md). A copy is kept at
 * most `KEEP_MS` and is taken only while the object still has the size and ETag it had when copied,
 * so a replaced object (an item's file updated) is copied again; a load on another worker copies the
 * file itself. Where the API and a worker share the process (`npm start`, the benches), an uploaded
 * file's own temporary file is kept the same way (keepUploadedCopy), so planning does not copy the
 * object back out of MinIO either.
 */
import { rmSync } from 'node:fs';
import { link, mkdtemp, rm } from 'node:fs/promises';
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
): Promise<Spooled & { version: string | null }> {
  const version = await versionOf(store, key);
  const k = kept.get(key);
  if (k) {
    kept.delete(key);
    clearTimeout(k.timer);
    if (version !== null && k.version === version) return { path: k.path, remove: k.remove, version };
    await k.remove();
  }
  return { ...(await spoolObject(store, key)), version };
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
