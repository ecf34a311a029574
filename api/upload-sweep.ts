/**
 * Temporary upload files of requests that never ended: a process killed while a file part was being
 * written leaves its `upload-*` file in `DATA_DIR/tmp` (a request that ends, however, removes its own).
 * Every API process removes such files once they are an hour old, at its start and every hour, and the
 * `upload-kept-*` directories of uploads kept for the process's own worker (kept a minute at most). A live
 * upload writes its file as its bytes arrive, and a request that stops sending is ended by the server's
 * request timeout long before an hour, so no file of a live request is that old; several processes
 * sharing one `DATA_DIR` leave each other's live files alone.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KEPT_UPLOAD_PREFIX } from '../infra/readers/sqlite-spool.js';

/** A temporary upload file untouched for this long belongs to no live request. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** Removes the `upload-*` files in `tmpDir` last written `STALE_UPLOAD_MS` or more before `now`. */
export async function removeStaleUploads(tmpDir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return 0; // no directory yet: no upload was ever spooled here
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('upload-')) continue;
    const path = join(tmpDir, name);
    try {
      const s = await stat(path);
      // A kept upload's directory (infra/readers/sqlite-spool.ts) is removed with its copy.
      const kept = s.isDirectory() && name.startsWith(KEPT_UPLOAD_PREFIX);
      if ((!s.isFile() && !kept) || now - s.mtimeMs < STALE_UPLOAD_MS) continue;
      await rm(path, { force: true, recursive: kept });
      removed++;
    } catch {
      // Removed meanwhile by its request or another process.
    }
  }
  return removed;
}

interface SweepLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** Sweeps `tmpDir` now and every STALE_UPLOAD_MS (an unreferenced timer); the answer stops it. */
export function sweepStaleUploads(tmpDir: string, log: SweepLog): () => void {
  const run = () =>
    removeStaleUploads(tmpDir).then(
      (count) => {
        if (count > 0) log.info('removed stale upload files', { count, dir: tmpDir });
      },
      (err: unknown) => log.warn('could not sweep stale upload files', { err, dir: tmpDir }),
    );
  void run();
  const timer = setInterval(run, STALE_UPLOAD_MS);
  timer.unref();
  return () => clearInterval(timer);
}
