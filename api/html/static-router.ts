/**
 * `/static/…`: the pages' own scripts and styles (api/html/static) and Leaflet from its npm package, so
 * no page needs another origin. Only files that exist at start are served; names are never joined
 * into paths from the request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../env.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

function filesUnder(dir: string, prefix: string, out: Map<string, string>) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = join(entry.parentPath, entry.name);
    if (entry.isFile() && TYPES[extname(entry.name)])
      out.set(`${prefix}${relative(dir, full).split('\\').join('/')}`, full);
  }
}

/** Every servable file by its URL path below /static. */
export function staticFiles(): Map<string, string> {
  const files = new Map<string, string>();
  filesUnder(join(import.meta.dirname, 'static'), '', files);
  const leaflet = dirname(createRequire(import.meta.url).resolve('leaflet/package.json'));
  filesUnder(join(leaflet, 'dist'), 'leaflet/', files);
  return files;
}

export function createStaticRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const files = staticFiles();
  const cache = new Map<string, Buffer>();
  router.get('/static/*', (c) => {
    const name = c.req.path.replace(/^.*?\/static\//, '');
    const file = files.get(name);
    if (!file)
      return c.json({ error: { code: 404, message: 'Not Found', details: [`No file ${name}.`] } }, 404);
    let bytes = cache.get(name);
    if (!bytes) {
      bytes = readFileSync(file);
      cache.set(name, bytes);
    }
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': TYPES[extname(file)]!,
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return router;
}
