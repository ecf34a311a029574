/**
 * Worker threads started from plain JavaScript: each thread kind's TypeScript work module is bundled
 * once (esbuild, which the TypeScript loader itself runs on) into one ES module, and threads load that
 * instead of registering the TypeScript loader and loading their module graph through it. A SQLite
 * encoder thread took about 700 ms and 0.9 CPU-s to answer its first message that way on an idle
 * 2-core machine (the loader's own hooks thread, then about sixty modules each resolved and loaded
 * across it), against about 160 ms and 0.22 CPU-s from its bundle; beside a load on both cores a
 * fresh thread took 1.2-1.5 s to its first batch.
 *
 * A bundle is built the first time a process asks for its kind (about 60-110 ms on that process's
 * thread; threads are mostly started ahead, off the path of a request), named by a hash of its text
 * so that processes running different code never share one, and written under
 * node_modules/.cache, where the packages it leaves outside (postgres, sql.js …) resolve as they do
 * for the sources; the CommonJS packages proj4 and papaparse are carried inside (BUNDLED_PACKAGES).
 * A bundle that goes missing is built again at the next thread start (from the sources as they are
 * then, as a thread started through the TypeScript loader would read them); another version's
 * bundles of a kind are removed a day after they were written. Where the directory
 * cannot be written, threads start through the TypeScript loader entry as before.
 *
 * The modules a thread runs must not use `import.meta` (it would name the bundle, not their own
 * file): a bundle whose text uses it is refused when it is built.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { createLogger } from './logger.js';

const log = createLogger();

/** Where bundles are written (beside the packages they import). */
export const THREAD_BUNDLE_DIR = fileURLToPath(
  new URL('../node_modules/.cache/geoportal-threads/', import.meta.url),
);

/**
 * Packages bundled into a thread's module instead of imported from node_modules: CommonJS packages,
 * which Node's ES module loader would otherwise scan with its CommonJS export lexer in every thread
 * that imports them (proj4's 317 KB build took about 100 ms more to import that way than to require,
 * in each fresh thread, and the lexer itself got hot enough to be optimised there). Bundled, esbuild
 * wraps them as CommonJS and nothing scans them. Every other package stays outside (postgres is an
 * ES module; sql.js and xlsx find files beside themselves).
 */
export const BUNDLED_PACKAGES: readonly string[] = ['proj4', 'papaparse'];

/** This project's package.json (dependencies and devDependencies name what its sources import). */
const PACKAGE_JSON = fileURLToPath(new URL('../package.json', import.meta.url));

/** esbuild's `external` list: every package the project depends on but BUNDLED_PACKAGES, and their
 * subpaths. */
export function externalPackages(packageJson = PACKAGE_JSON): string[] {
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  return names.filter((n) => !BUNDLED_PACKAGES.includes(n)).flatMap((n) => [n, `${n}/*`]);
}

/** The bundle of `work` (a thread's TypeScript work module) as one ES module's text. */
export function bundleText(work: URL): string {
  const built = buildSync({
    entryPoints: [fileURLToPath(work)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externalPackages(),
    keepNames: true,
    write: false,
    logLevel: 'silent',
  });
  const text = built.outputFiles[0]?.text ?? '';
  if (text.includes('import.meta')) {
    throw new Error(
      `${basename(fileURLToPath(work))} (or a module it imports) uses import.meta, which a thread bundle cannot keep.`,
    );
  }
  return text;
}

/** Writes `text` as `name`'s bundle in `dir` (if no process wrote it already) and answers its path. */
function writeBundle(dir: string, name: string, text: string): string {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const path = join(dir, `${name}-${hash}.mjs`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  // Written whole under another name first: a process starting a thread never reads half a bundle.
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, path);
  pruneBundles(dir, name, path);
  return path;
}

/** Bundles of another version of a kind are removed once they are this old (a process of that
 * version still running builds its own again). */
const STALE_BUNDLE_MS = 24 * 60 * 60 * 1000;

/** Removes `name`'s other bundles (and temporary files) written more than STALE_BUNDLE_MS ago. */
function pruneBundles(dir: string, name: string, kept: string): void {
  const now = Date.now();
  for (const file of readdirSync(dir)) {
    if (!file.startsWith(`${name}-`) || join(dir, file) === kept) continue;
    try {
      if (now - statSync(join(dir, file)).mtimeMs > STALE_BUNDLE_MS) unlinkSync(join(dir, file));
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/**
 * The entry URL of a thread kind: `work`'s bundle, built at the first call (and again if its file is
 * gone), or `fallback` (the TypeScript loader entry) where no bundle can be written in `dir`.
 */
export function threadEntry(work: URL, fallback: URL, dir = THREAD_BUNDLE_DIR): () => URL {
  const name = basename(fileURLToPath(work)).replace(/\.[cm]?ts$/, '');
  let entry: URL | undefined;
  let usingFallback = false;
  return () => {
    if (usingFallback) return fallback;
    if (entry && existsSync(fileURLToPath(entry))) return entry;
    const text = bundleText(work);
    try {
      entry = pathToFileURL(writeBundle(dir, name, text));
    } catch (e) {
      usingFallback = true;
      log.warn('thread bundle could not be written; threads start through the TypeScript loader', {
        thread: name,
        dir,
        message: e instanceof Error ? e.message : String(e),
      });
      return fallback;
    }
    return entry;
  };
}

/**
 * Runs `start` after `delayMs`, on a timer that keeps no process alive: a thread kind's start ahead,
 * whose bundle is then built off the worker's own start.
 */
export function afterDelay(delayMs: number, start: () => void): void {
  setTimeout(start, delayMs).unref();
}
