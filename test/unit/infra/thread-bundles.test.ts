/**
 * Threads started from plain JavaScript bundles of their TypeScript work modules
 * (infra/thread-bundles.ts): the bundle carries the module's TypeScript imports, is named by its
 * text, is built again when its file is gone, refuses modules that use import.meta, and where no
 * bundle can be written the thread starts through its TypeScript loader entry.
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUNDLED_PACKAGES,
  bundleText,
  externalPackages,
  threadEntry,
} from '../../../infra/thread-bundles.js';

const work = new URL('./thread-bundles/echo-work.ts', import.meta.url);
const fallback = new URL('./thread-bundles/fallback-worker.mjs', import.meta.url);
const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'thread-bundles-'));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What a thread started on `url` answers to 21. */
async function ask(url: URL): Promise<unknown> {
  const worker = new Worker(url, { execArgv: [] });
  try {
    worker.postMessage(21);
    const [answer] = await once(worker, 'message');
    return answer;
  } finally {
    await worker.terminate();
  }
}

describe('thread bundles', () => {
  it('starts a thread from one plain module that carries its TypeScript imports', async () => {
    const dir = newDir();
    const entry = threadEntry(work, fallback, dir)();
    const path = fileURLToPath(entry);
    expect(path.startsWith(dir)).toBe(true);
    expect(path).toMatch(/echo-work-[0-9a-f]{16}\.mjs$/);
    const text = readFileSync(path, 'utf8');
    // The helper's code is inside the bundle, not imported from its TypeScript file.
    expect(text).toContain('n * 2');
    expect(text).not.toMatch(/(from|import\()\s*["'][^"']*helper/);
    expect(await ask(entry)).toEqual({ doubled: 42 });
  });

  it('answers the same file while it is there, and builds it again when it is gone', async () => {
    const dir = newDir();
    const entry = threadEntry(work, fallback, dir);
    const first = entry();
    expect(entry()).toBe(first);
    rmSync(fileURLToPath(first));
    const again = entry();
    expect(again.href).toBe(first.href);
    expect(await ask(again)).toEqual({ doubled: 42 });
    // No temporary file is left beside it.
    expect(readdirSync(dir)).toEqual([fileURLToPath(again).split('/').pop()]);
  });

  it('names a bundle by its text: two processes of the same code share one file', () => {
    const dir = newDir();
    const a = threadEntry(work, fallback, dir)();
    const b = threadEntry(work, fallback, dir)();
    expect(b.href).toBe(a.href);
    expect(readdirSync(dir).length).toBe(1);
  });

  it("removes another version's bundles of the kind a day after they were written, and no other", () => {
    const dir = newDir();
    const old = join(dir, 'echo-work-0000000000000000.mjs');
    const recent = join(dir, 'echo-work-1111111111111111.mjs');
    const otherKind = join(dir, 'csv-load-work-2222222222222222.mjs');
    for (const f of [old, recent, otherKind]) writeFileSync(f, '');
    const dayAndMore = (Date.now() - 25 * 60 * 60 * 1000) / 1000;
    utimesSync(old, dayAndMore, dayAndMore);
    utimesSync(otherKind, dayAndMore, dayAndMore);
    const entry = fileURLToPath(threadEntry(work, fallback, dir)());
    expect(readdirSync(dir).sort()).toEqual([recent, otherKind, entry].map((f) => f.split('/').pop()).sort());
  });

  it('refuses a module that uses import.meta', () => {
    expect(() => bundleText(new URL('./thread-bundles/meta-work.ts', import.meta.url))).toThrow(
      /import\.meta/,
    );
  });

  it('starts through the TypeScript loader entry where no bundle can be written', async () => {
    const dir = newDir();
    // A directory under a plain file cannot be made, whoever runs the test.
    const blocked = join(dir, 'file');
    writeFileSync(blocked, '');
    const entry = threadEntry(work, fallback, join(blocked, 'bundles'));
    expect(entry().href).toBe(fallback.href);
    expect(entry().href).toBe(fallback.href);
    expect(await ask(entry())).toEqual({ doubled: 42 });
  });

  it('carries the CommonJS packages inside the bundle, and they work in the thread', async () => {
    const dir = newDir();
    const entry = threadEntry(new URL('./thread-bundles/cjs-work.ts', import.meta.url), fallback, dir)();
    const text = readFileSync(fileURLToPath(entry), 'utf8');
    // Neither is imported from node_modules (Node would scan it with its CommonJS export lexer).
    expect(text).not.toMatch(/from\s*["'](proj4|papaparse)["']/);
    const worker = new Worker(entry, { execArgv: [] });
    try {
      worker.postMessage({ point: [10, 50], csv: 'a,"b,c"\n1,2' });
      const [answer] = await once(worker, 'message');
      // Spherical Mercator by its formula: x = R·λ, y = R·ln(tan(π/4 + φ/2)), R = 6378137.
      const r = 6378137;
      const rad = Math.PI / 180;
      expect(answer.projected[0]).toBeCloseTo(r * 10 * rad, 6);
      expect(answer.projected[1]).toBeCloseTo(r * Math.log(Math.tan(Math.PI / 4 + (50 * rad) / 2)), 6);
      expect(answer.rows).toEqual([
        ['a', 'b,c'],
        ['1', '2'],
      ]);
    } finally {
      await worker.terminate();
    }
  });

  it('leaves every other package the project depends on outside the bundle', () => {
    const external = externalPackages();
    for (const pkg of ['postgres', 'sql.js', 'xlsx', 'yauzl', 'shpjs']) {
      expect(external).toContain(pkg);
      expect(external).toContain(`${pkg}/*`);
    }
    for (const pkg of BUNDLED_PACKAGES) expect(external).not.toContain(pkg);
    const text = bundleText(new URL('../../../activities/publish/sqlite-encoder-work.ts', import.meta.url));
    expect(text).toMatch(/from\s*["']postgres["']/);
    expect(text).toMatch(/from\s*["']sql\.js["']/);
  });

  it('bundles every thread kind of the product without import.meta', () => {
    for (const kind of [
      '../../../activities/publish/csv-encoder-work.ts',
      '../../../activities/publish/csv-load-work.ts',
      '../../../activities/publish/sqlite-encoder-work.ts',
      '../../../activities/publish/parse-work.ts',
      '../../../activities/publish/excel-work.ts',
      '../../../activities/tiles/render-work.ts',
    ]) {
      expect(bundleText(new URL(kind, import.meta.url)).length).toBeGreaterThan(1000);
    }
  });
});
