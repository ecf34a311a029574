/** Our map viewer page in Chromium: it draws the service under its strict CSP without a console error. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { launchChromium, watchPage } from './chromium.js';
import { libraries, publishForBrowsers, RED_TILES_AT_LEVEL_1 } from './published.js';

let browser: Browser;
let published: Awaited<ReturnType<typeof publishForBrowsers>>;

beforeAll(async () => {
  [browser, published] = await Promise.all([launchChromium(), publishForBrowsers('viewer')]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
});

describe('the map viewer in Chromium', () => {
  it('draws every feature of a private service with the token, with attribute popups and no console error', async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    const { features, token } = published;
    await page.goto(`${stack().baseUrl}/apps/viewer/Hosted/${features}/FeatureServer?token=${token}`);
    await page.waitForSelector('#map[data-ready="true"]', { timeout: 60_000 });
    expect(await page.getAttribute('#map', 'data-features')).toBe(String(libraries.length));
    expect(await page.locator('path.leaflet-interactive').count()).toBe(libraries.length);
    await page.locator('path.leaflet-interactive').first().click({ force: true });
    const popup = (await page.locator('.leaflet-popup-content').textContent()) ?? '';
    expect(libraries.some((l) => popup.includes(l.name) && popup.includes(l.code))).toBe(true);
    // Zoomed to the features: every marker lies inside the map's frame.
    const inside = await page.evaluate(`(() => {
      const frame = document.getElementById('map').getBoundingClientRect();
      return [...document.querySelectorAll('path.leaflet-interactive')].filter((p) => {
        const r = p.getBoundingClientRect();
        return r.left >= frame.left && r.right <= frame.right && r.top >= frame.top && r.bottom <= frame.bottom;
      }).length;
    })()`);
    expect(inside).toBe(libraries.length);
    expect(watched.problems).toEqual([]);
    expect(watched.failed).toEqual([]);
    await page.close();
  });

  it('shows a tile service’s tiles, asking only for tiles (a missing one is the cache’s 404)', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const watched = watchPage(page);
    const { tiles, token } = published;
    await page.goto(`${stack().baseUrl}/apps/viewer/Hosted/${tiles}/MapServer?token=${token}`);
    await page.waitForSelector('#map[data-ready="true"]', { timeout: 60_000 });
    // (A string for waitForFunction would be eval, which the page's CSP rightly refuses.)
    await page
      .locator('img.leaflet-tile-loaded')
      .nth(RED_TILES_AT_LEVEL_1 - 1)
      .waitFor({ timeout: 30_000 });
    const srcs = await page
      .locator('img.leaflet-tile-loaded')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src') ?? ''));
    const loaded = srcs.map((src) => new URL(src).pathname.replace(/^.*\/tile\//, ''));
    // The world repeats east and west of itself; each of its tiles is the same cache tile.
    expect([...new Set(loaded)].sort()).toEqual(['1/0/0', '1/1/1']);
    // Only the two tiles the package lacks at level 1 may fail, with 404, and nothing else.
    expect(watched.failed.map((f) => f.status)).toEqual(watched.failed.map(() => 404));
    expect(watched.failed.every((f) => /\/MapServer\/tile\/1\/(0\/1|1\/0)\?/.test(f.url))).toBe(true);
    const others = watched.problems.filter((p) => !/status of 404/.test(p));
    expect(others).toEqual([]);
    await page.close();
  });

  it('signs a person in through the home page form and lists their content', async () => {
    const page = await browser.newPage();
    const watched = watchPage(page);
    await page.goto(`${stack().baseUrl}/`);
    await page.fill('input[name="username"]', stack().admin.username);
    await page.fill('input[name="password"]', stack().admin.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('#signed-in-user', { timeout: 30_000 });
    expect(await page.textContent('#signed-in-user')).toBe(stack().admin.username);
    await page.click('text=My content');
    await page.waitForSelector(`text=${published.features}`, { timeout: 30_000 });
    expect(watched.problems).toEqual([]);
    await page.close();
  });
});
