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
import { bundleText, threadEntry } from '../../../infra/thread-bundles.js';

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
