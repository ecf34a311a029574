/**
 * Debian's Chromium driven by playwright-core, as the real web clients run in it, and a small server for
 * the test pages that load those clients (esri-leaflet, the ArcGIS Maps SDK) from node_modules: another
 * origin than the product's, as a web app's would be.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** WebGL for the ArcGIS Maps SDK, in software. */
export const WEBGL_FLAGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export function launchChromium(extraFlags: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: npm test installs Debian's chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extraFlags], timeout: 60_000 });
}

/** What went wrong on a page: console errors, uncaught exceptions, CSP violations, failed responses. */
export function watchPage(page: Page) {
  const problems: string[] = [];
  const failed: { url: string; status: number }[] = [];
  const succeeded: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push({ url: r.url(), status: r.status() });
    else succeeded.push(r.url());
  });
  return { problems, failed, succeeded };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.html': 'text/html',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `pages` (path → HTML) and any file below node_modules at `/node_modules/…`, nothing else.
 * `onMissing` answers other paths (a stub for CSS that a client imports as a module, for instance).
 */
export async function servePages(
  pages: Record<string, string>,
  onMissing?: (path: string) => { type: string; body: string } | undefined,
): Promise<PageServer> {
  const modules = realpathSync(resolve(import.meta.dirname, '..', '..', '..', 'node_modules'));
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
      res.end(body);
    };
    if (pages[path] !== undefined) return send(200, 'text/html; charset=utf-8', pages[path]);
    if (path.startsWith('/node_modules/')) {
      const file = resolve(modules, `.${path.slice('/node_modules'.length)}`);
      if (file.startsWith(`${modules}/`) && existsSync(file) && TYPES[extname(file)])
        return send(200, TYPES[extname(file)]!, readFileSync(file));
    }
    const stub = onMissing?.(path);
    if (stub) return send(200, stub.type, stub.body);
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export const nodeModule = (path: string) => join('/node_modules', path);
