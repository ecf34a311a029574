/**
 * The ArcGIS Maps SDK for JavaScript (@arcgis/core from npm, no bundler: an import map over node_modules)
 * in Chromium with software WebGL draws our FeatureLayer and TileLayer, signed in with a token.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { launchChromium, type PageServer, servePages, WEBGL_FLAGS, watchPage } from './chromium.js';
import { buildImportMap } from './import-map.js';
import { libraries, publishForBrowsers } from './published.js';

let browser: Browser;
let pages: PageServer;
let published: Awaited<ReturnType<typeof publishForBrowsers>>;

const CSS_STUB = '/css-module-stub.js';
/** Imported by calcite's runtime as `../cdn/main.css`. */
const CALCITE_CSS = '/node_modules/@esri/calcite-components/dist/cdn/main.css';
const modules = realpathSync(resolve(import.meta.dirname, '..', '..', '..', 'node_modules'));

function page(): string {
  // calcite's runtime imports its CSS from JavaScript, which a browser without a bundler cannot do: the
  // import gets an empty module and the page links the CSS instead.
  const imports = Object.fromEntries(
    Object.entries(buildImportMap(modules, '@arcgis/core')).map(([k, v]) => [
      k,
      v.endsWith('.css') ? CSS_STUB : v,
    ]),
  );
  imports[CALCITE_CSS] = CSS_STUB;
  // The page reads its parameters from the query string and reports through window.result.
  return `<!doctype html>
<html><head>
<link rel="stylesheet" href="/node_modules/@arcgis/core/assets/esri/themes/light/main.css">
<link rel="stylesheet" href="${CALCITE_CSS}">
<script>globalThis.process = { env: { NODE_ENV: 'production' } }; window.result = {};</script>
<script type="importmap">${JSON.stringify({ imports })}</script>
</head><body>
<div id="view" style="width: 512px; height: 512px"></div>
<script type="module">
import esriConfig from '@arcgis/core/config.js';
import esriId from '@arcgis/core/identity/IdentityManager.js';
import EsriMap from '@arcgis/core/Map.js';
import MapView from '@arcgis/core/views/MapView.js';
import FeatureLayer from '@arcgis/core/layers/FeatureLayer.js';
import TileLayer from '@arcgis/core/layers/TileLayer.js';
import * as reactiveUtils from '@arcgis/core/core/reactiveUtils.js';
const q = new URLSearchParams(location.search);

try {
  esriConfig.assetsPath = '/node_modules/@arcgis/core/assets';
  esriConfig.request.useIdentity = true;
  esriId.registerToken({ server: q.get('server'), token: q.get('token'), ssl: false });
  const map = new EsriMap();
  const view = new MapView({ container: 'view', map });
  if (q.get('features')) {
    const layer = new FeatureLayer({ url: q.get('features'), outFields: ['*'] });
    map.add(layer);
    window.result.step = 'feature layer loading';
    await layer.load();
    window.result.step = 'feature layer loaded';
    await view.goTo(layer.fullExtent);
    window.result.step = 'view at extent';
    const layerView = await view.whenLayerView(layer);
    window.result.step = 'layer view';
    await reactiveUtils.whenOnce(() => !layerView.updating);
    window.result.step = 'layer view updated';
    const { features } = await layerView.queryFeatures({ where: '1=1', outFields: ['*'] });
    window.result.features = features.length;
    window.result.names = features.map((f) => f.attributes.Name);
    // A server query on a grid of 0.0001° in view mode, decoded by the SDK itself.
    const grid = layer.createQuery();
    grid.where = '1=1';
    grid.outFields = ['Name'];
    grid.returnGeometry = true;
    grid.outSpatialReference = { wkid: 4326 };
    grid.quantizationParameters = {
      mode: 'view',
      originPosition: 'upperLeft',
      tolerance: 0.0001,
      extent: { xmin: -88, ymin: 41, xmax: -87, ymax: 43, spatialReference: { wkid: 4326 } },
    };
    const quantized = await layer.queryFeatures(grid);
    window.result.quantized = quantized.features.map((f) => [f.attributes.Name, f.geometry.x, f.geometry.y]);
  }
  if (q.get('tiles')) {
    const layer = new TileLayer({ url: q.get('tiles') });
    map.add(layer);
    await layer.load();
    view.center = [0, 0];
    view.zoom = 1;
    const layerView = await view.whenLayerView(layer);
    await reactiveUtils.whenOnce(() => !layerView.updating);
    window.result.tiles = layer.tileInfo.lods.length;
  }
  window.result.done = true;
} catch (e) {
  window.result.error = String(e && e.message || e);
}
</script>
</body></html>`;
}

beforeAll(async () => {
  [browser, pages, published] = await Promise.all([
    launchChromium(WEBGL_FLAGS),
    servePages({ '/arcgis.html': page() }, (path) =>
      path === CSS_STUB ? { type: 'text/javascript', body: 'export default "";' } : undefined,
    ),
    publishForBrowsers('arcgis_core'),
  ]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

async function open(params: Record<string, string>) {
  const p = await browser.newPage();
  const watched = watchPage(p);
  const q = new URLSearchParams({
    server: `${stack().baseUrl}/rest/services`,
    token: published.token,
    ...params,
  });
  await p.goto(`${pages.url}/arcgis.html?${q}`);
  await p
    .waitForFunction('window.result.done || window.result.error', undefined, { timeout: 90_000 })
    .catch(async (e) => {
      // Say where the SDK stopped: the page's last step, its errors and failed requests.
      const state = await p.evaluate('JSON.stringify(window.result)');
      throw new Error(
        `${e.message}\nresult: ${state}\nproblems: ${watched.problems.join('\n')}\nfailed: ${JSON.stringify(watched.failed)}\nlast: ${watched.succeeded.slice(-5).join('\n')}`,
      );
    });
  return { page: p, watched, result: (await p.evaluate('window.result')) as Record<string, any> };
}

describe('the ArcGIS Maps SDK for JavaScript in Chromium', () => {
  it('draws a private FeatureLayer: the layer view holds every feature', async () => {
    const { page, watched, result } = await open({
      features: `${stack().baseUrl}/rest/services/Hosted/${published.features}/FeatureServer/0`,
    });
    expect(result.error).toBeUndefined();
    expect(result.features).toBe(libraries.length);
    expect([...result.names].sort()).toEqual(libraries.map((l) => l.name).sort());
    expect(watched.failed.filter((f) => f.url.startsWith(stack().baseUrl))).toEqual([]);
    // The layer advertises PBF: the SDK fetched the features it drew as f=pbf (a layer this small is read
    // whole, in snapshot mode, without quantizationParameters: our finest grid then).
    const drawn = watched.succeeded
      .filter((u) => u.includes('/FeatureServer/0/query'))
      .map((u) => new URL(u).searchParams)
      .filter((q) => q.get('f') === 'pbf' && q.get('outFields') === '*');
    expect(drawn.length).toBeGreaterThan(0);
    // The quantized query went out as f=pbf with its grid; the SDK's reader hands a query that asked for a
    // grid its cells (x from the extent's left, y down from its top, in 0.0001° cells).
    expect(
      watched.succeeded.some((u) => {
        const q = new URL(u).searchParams;
        return (
          q.get('f') === 'pbf' && JSON.parse(q.get('quantizationParameters') ?? '{}').tolerance === 0.0001
        );
      }),
    ).toBe(true);
    expect(result.quantized).toHaveLength(libraries.length);
    for (const [name, x, y] of result.quantized) {
      const library = libraries.find((l) => l.name === name)!;
      expect([x, y]).toEqual([
        Math.round((library.lon + 88) / 0.0001),
        Math.round((43 - library.lat) / 0.0001),
      ]);
    }
    await page.close();
  });

  it('draws a private TileLayer from the cache', async () => {
    const { page, watched, result } = await open({
      tiles: `${stack().baseUrl}/rest/services/Hosted/${published.tiles}/MapServer`,
    });
    expect(result.error).toBeUndefined();
    expect(result.tiles).toBe(3);
    const drawn = watched.succeeded
      .filter((u) => u.includes('/MapServer/tile/'))
      .map((u) => new URL(u).pathname.replace(/^.*\/tile\//, ''));
    expect(drawn).toContain('1/0/0');
    expect(drawn).toContain('1/1/1');
    expect(watched.failed.filter((f) => !f.url.includes('/MapServer/tile/'))).toEqual([]);
    await page.close();
  });
});
