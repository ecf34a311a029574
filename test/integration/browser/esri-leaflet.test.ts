/**
 * esri-leaflet 3 (with Leaflet 1.9), loaded from node_modules by a page on another origin, reads our
 * services as it reads ArcGIS Server's. It asks for `…/FeatureServer/0/?f=json` and `…/MapServer/?f=json`
 * with a trailing slash, which the server answers as ArcGIS Server does.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { launchChromium, type PageServer, servePages, watchPage } from './chromium.js';
import { libraries, publishForBrowsers } from './published.js';

let browser: Browser;
let pages: PageServer;
let published: Awaited<ReturnType<typeof publishForBrowsers>>;

/** The test page: the service URLs and token come in the query string; results land in window.result. */
const PAGE = `<!doctype html>
<html><head>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/node_modules/leaflet/dist/leaflet.css">
<script src="/node_modules/leaflet/dist/leaflet.js"></script>
<script src="/node_modules/esri-leaflet/dist/esri-leaflet.js"></script>
</head><body>
<div id="map" style="width: 512px; height: 512px"></div>
<script>
const q = new URLSearchParams(location.search);
const token = q.get('token');
window.result = { tiles: 0, tileErrors: 0 };
const map = L.map('map');
if (q.get('features')) {
  map.setView([41.87, -87.68], 10);
  const layer = L.esri.featureLayer({ url: q.get('features'), token }).addTo(map);
  layer.on('load', () => {
    let n = 0;
    const names = [];
    layer.eachFeature((f) => { n++; names.push(f.feature.properties.Name); });
    window.result.features = n;
    window.result.names = names;
  });
  layer.metadata((error, metadata) => { window.result.metadata = error ? String(error.message) : metadata.name; });
}
if (q.get('tiles')) {
  map.setView([0, 0], 1);
  const layer = L.esri.tiledMapLayer({ url: q.get('tiles'), token }).addTo(map);
  // Tiles off the world's edge are Leaflet's blank data: images, not requests.
  const tileOf = (e) => e.tile.src.includes('/MapServer/tile/') ? new URL(e.tile.src).pathname.split('/tile/')[1] : 'blank';
  // A failed tile's image is already Leaflet's blank one; its coordinates say which it was.
  const coordsOf = (c) => c.z + '/' + c.y + '/' + (((c.x % 2 ** c.z) + 2 ** c.z) % 2 ** c.z);
  window.result.loaded = [];
  window.result.missing = [];
  layer.on('tileload', (e) => { window.result.tiles++; window.result.loaded.push(tileOf(e)); });
  layer.on('tileerror', (e) => { window.result.tileErrors++; window.result.missing.push(coordsOf(e.coords)); });
}
</script>
</body></html>`;

beforeAll(async () => {
  [browser, pages, published] = await Promise.all([
    launchChromium(),
    servePages({ '/esri-leaflet.html': PAGE }),
    publishForBrowsers('esri_leaflet'),
  ]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

const services = () => `${stack().baseUrl}/rest/services/Hosted`;

describe('esri-leaflet in Chromium', () => {
  it('loads a private FeatureLayer with a token and draws every feature', async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    const q = new URLSearchParams({
      features: `${services()}/${published.features}/FeatureServer/0`,
      token: published.token,
    });
    await page.goto(`${pages.url}/esri-leaflet.html?${q}`);
    await page.waitForFunction(
      'window.result.features !== undefined && window.result.metadata !== undefined',
      undefined,
      {
        timeout: 60_000,
      },
    );
    const result = (await page.evaluate('window.result')) as {
      features: number;
      names: string[];
      metadata: string;
    };
    expect(result.metadata).toBe('chicago_libraries');
    expect(result.features).toBe(libraries.length);
    expect(result.names.sort()).toEqual(libraries.map((l) => l.name).sort());
    expect(await page.locator('.leaflet-marker-icon').count()).toBe(libraries.length);
    expect(watched.problems).toEqual([]);
    await page.close();
  });

  it('loads a tiled map layer and draws the tiles its cache has', async () => {
    const page = await browser.newPage();
    const q = new URLSearchParams({
      tiles: `${services()}/${published.tiles}/MapServer`,
      token: published.token,
    });
    await page.goto(`${pages.url}/esri-leaflet.html?${q}`);
    // Level 1 in a 512 px map shows the four tiles; the package has two of them.
    await page.waitForFunction('window.result.tiles + window.result.tileErrors >= 4', undefined, {
      timeout: 60_000,
    });
    const result = (await page.evaluate('window.result')) as { loaded: string[]; missing: string[] };
    // The world repeats east and west of itself: the same cache tiles, asked for again.
    expect([...new Set(result.loaded)].filter((t) => t !== 'blank').sort()).toEqual(['1/0/0', '1/1/1']);
    expect([...new Set(result.missing)].sort()).toEqual(['1/0/1', '1/1/0']);
    await page.close();
  });
});
