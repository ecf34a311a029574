/**
 * Upload files a killed process left in DATA_DIR/tmp are removed once an hour old (api/upload-sweep.ts);
 * younger ones (a live request's) and files that are not uploads stay.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleUploads, STALE_UPLOAD_MS } from '../../../api/upload-sweep.js';

describe('stale upload files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('removes upload files last written an hour or more ago, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-'));
    dirs.push(dir);
    const now = Date.now();
    const file = (name: string, ageMs: number) => {
      const path = join(dir, name);
      writeFileSync(path, 'x');
      const at = new Date(now - ageMs);
      utimesSync(path, at, at);
      return path;
    };
    const killed = file('upload-0a1b2c3d4e5f60718293a4b5', STALE_UPLOAD_MS + 1000);
    const older = file('upload-ffffffffffffffffffffffff', 3 * 24 * 3600 * 1000);
    const live = file('upload-000000000000000000000000', STALE_UPLOAD_MS - 60_000);
    const other = file('kept-by-someone-else', 10 * STALE_UPLOAD_MS);
    // Directories of uploads kept for the process's worker (infra/readers/sqlite-spool.ts).
    const keptDir = (name: string, ageMs: number) => {
      const path = join(dir, name);
      mkdirSync(path);
      writeFileSync(join(path, 'source.db'), 'x');
      const at = new Date(now - ageMs);
      utimesSync(path, at, at);
      return path;
    };
    const keptStale = keptDir('upload-kept-AbC123', STALE_UPLOAD_MS + 1000);
    const keptLive = keptDir('upload-kept-XyZ789', 1000);
    const otherDir = keptDir('upload-something-else', 10 * STALE_UPLOAD_MS);
    expect(await removeStaleUploads(dir, now)).toBe(3);
    expect([killed, older, live, other].map((p) => existsSync(p))).toEqual([false, false, true, true]);
    expect([keptStale, keptLive, otherDir].map((p) => existsSync(p))).toEqual([false, true, true]);
    expect(await removeStaleUploads(dir, now)).toBe(0);
  });

  it('finds nothing to do where no upload was ever spooled', async () => {
    expect(await removeStaleUploads(join(tmpdir(), `no-such-dir-${Date.now()}`))).toBe(0);
  });
});
