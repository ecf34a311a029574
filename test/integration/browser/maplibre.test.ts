/**
 * MapLibre GL JS (from npm, loaded by a page on another origin) in Chromium with software WebGL draws a
 * vector tile service built from a feature service through the service's default style, the token
 * added to our URLs by transformRequest. Once the map is idle, queryRenderedFeatures at the pixel where
 * the test's own Mercator arithmetic puts each city finds that city, and nothing in the empty ocean.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITIES, gridPosition, publishCityTiles } from '../tiles/vector-client.js';
import { launchChromium, type PageServer, servePages, WEBGL_FLAGS, watchPage } from './chromium.js';

let browser: Browser;
let pages: PageServer;
let published: Awaited<ReturnType<typeof publishCityTiles>>;

const WIDTH = 1024;
const HEIGHT = 512;
const ZOOM = 1;
const CENTER = { lon: 0, lat: 20 };

const PAGE = `<!doctype html>
<html><head>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/node_modules/maplibre-gl/dist/maplibre-gl.css">
</head><body style="margin: 0">
<div id="map" style="width: ${WIDTH}px; height: ${HEIGHT}px"></div>
<script type="module">
import { Map } from '/node_modules/maplibre-gl/dist/maplibre-gl.mjs';
const q = new URLSearchParams(location.search);
const token = q.get('token');
const ours = q.get('service');
window.result = { errors: [] };
const map = new Map({
  container: 'map',
  style: ours + '/resources/styles/root.json',
  center: [${CENTER.lon}, ${CENTER.lat}],
  zoom: ${ZOOM},
  fadeDuration: 0,
  transformRequest: (url) =>
    url.startsWith(ours) ? { url: url + (url.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) } : { url },
});
map.on('error', (e) => window.result.errors.push(String(e.error && e.error.message)));
map.once('idle', () => { window.result.idle = true; });
window.featuresAt = (x, y) =>
  map.queryRenderedFeatures([[x - 3, y - 3], [x + 3, y + 3]]).map((f) => f.properties.city);
</script>
</body></html>`;

/** The city's pixel in the map: 512-pixel world tiles at ZOOM, the center in the middle. */
function pixelOf(lon: number, lat: number) {
  const world = 512;
  const p = gridPosition(lon, lat, ZOOM);
  const c = gridPosition(CENTER.lon, CENTER.lat, ZOOM);
  return { x: (p.fx - c.fx) * world + WIDTH / 2, y: (p.fy - c.fy) * world + HEIGHT / 2 };
}

beforeAll(async () => {
  [browser, pages, published] = await Promise.all([
    launchChromium(WEBGL_FLAGS),
    servePages({ '/maplibre.html': PAGE }),
    publishCityTiles('maplibre_cities', 4),
  ]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

describe('MapLibre GL JS in Chromium', () => {
  let page: Page;
  let watched: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
    watched = watchPage(page);
    const q = new URLSearchParams({ service: published.url, token: published.token });
    await page.goto(`${pages.url}/maplibre.html?${q}`);
    await page.waitForFunction(() => (globalThis as any).result?.idle === true, undefined, {
      timeout: 90_000,
    });
  }, 120_000);

  it('loads the default style and its tiles; only tiles without a city are absent (404)', () => {
    expect(watched.problems).toEqual([]);
    for (const f of watched.failed) {
      const [z, y, x] = (/\/tile\/(\d+)\/(\d+)\/(\d+)\.pbf/.exec(f.url) ?? []).slice(1).map(Number);
      expect(f.status, f.url).toBe(404);
      const held = CITIES.filter((c) => {
        const p = gridPosition(c.lon, c.lat, z);
        return Math.floor(p.fx) === x && Math.floor(p.fy) === y;
      });
      expect(held, f.url).toEqual([]);
    }
    expect(watched.succeeded.some((u) => u.includes('/VectorTileServer/tile/1/'))).toBe(true);
  });

  it('finds every published city where the arithmetic puts it', async () => {
    for (const c of CITIES) {
      const { x, y } = pixelOf(c.lon, c.lat);
      const found: string[] = await page.evaluate(
        ([px, py]) => (globalThis as any).featuresAt(px, py),
        [x, y],
      );
      expect(found, c.city).toContain(c.city);
    }
  });

  it('finds nothing where there is no feature', async () => {
    const { x, y } = pixelOf(-30, -20);
    expect(await page.evaluate(([px, py]) => (globalThis as any).featuresAt(px, py), [x, y])).toEqual([]);
  });
});
