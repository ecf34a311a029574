import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../api/html/page.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish/publish-client.js';
import { adminToken, stack } from './support/portal-client.js';
import { publishPackage } from './tiles/tile-client.js';

let name = '';
let token = '';

async function page(path: string, params: Record<string, string> = {}) {
  const url = new URL(`${stack().baseUrl}${path}`);
  for (const [k, v] of Object.entries({ f: 'html', ...params })) url.searchParams.set(k, v);
  const res = await fetch(url);
  const text = await res.text();
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  return { status: res.status, text };
}

beforeAll(async () => {
  token = await adminToken();
  name = uniqueName('html_escaping');
  const analyzed = await upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: 'html-escaping.csv', path: fixture('html-escaping.csv') },
  );
  const { status } = await publishFile(token, 'html-escaping.csv', 'csv', {
    ...analyzed.publishParameters,
    name,
  });
  expect(status.status).toBe('completed');
});

describe('the services directory and portal pages for people (f=html)', () => {
  it('has a strict policy: scripts and styles from this origin only, nothing inline', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  it('lists folders at rest/services and the signed-in person’s services in Hosted, keeping the token in links', async () => {
    const root = await page('/rest/services');
    expect(root.text).toContain('href="/rest/services/Hosted?f=html"');
    expect(root.text).toContain('World');
    const hosted = await page('/rest/services/Hosted', { token });
    expect(hosted.text).toContain(
      `href="/rest/services/Hosted/${name}/FeatureServer?f=html&amp;token=${token}"`,
    );
    const anonymous = await page('/rest/services/Hosted');
    expect(anonymous.text).not.toContain(name);
  });

  it('shows a service with its layers and a link to its map viewer', async () => {
    const service = await page(featureServer(name), { token });
    expect(service.text).toContain(
      `href="/rest/services/Hosted/${name}/FeatureServer/0?f=html&amp;token=${token}"`,
    );
    expect(service.text).toContain(
      `href="/apps/viewer/Hosted/${name}/FeatureServer?f=html&amp;token=${token}"`,
    );
    expect(service.text).toContain(`href="/rest/services/Hosted/${name}/OGCFeatureServer"`);
  });

  it('shows a tile service with its extent and a link to its map viewer', async () => {
    const tiles = uniqueName('html_red');
    const { status } = await publishPackage('red.tpkx', 'tilePackage', tiles);
    expect(status.status).toBe('completed');
    const service = await page(`/rest/services/Hosted/${tiles}/MapServer`, { token });
    expect(service.text).toContain(`href="/apps/viewer/Hosted/${tiles}/MapServer?f=html&amp;token=${token}"`);
    // red.tpkx covers the whole Web Mercator square.
    expect(service.text).toContain('<th>XMin</th><td>-20037508.342787</td>');
    const viewer = await page(`/apps/viewer/Hosted/${tiles}/MapServer`, { token });
    expect(viewer.text).toContain(`data-service="/rest/services/Hosted/${tiles}/MapServer"`);
    expect(viewer.text).toContain(`data-token="${token}"`);
  });

  it('shows a layer with its fields, extent and capabilities and links its query form', async () => {
    const layer = await page(`${featureServer(name)}/0`, { token });
    for (const field of ['OBJECTID', 'Name', 'Note']) expect(layer.text).toContain(`<td>${field}</td>`);
    expect(layer.text).toContain('esriGeometryPoint');
    expect(layer.text).toMatch(/<th>XMin<\/th><td>-?\d/);
    expect(layer.text).toContain(
      `href="/rest/services/Hosted/${name}/FeatureServer/0/query?f=html&amp;token=${token}"`,
    );
  });

  it('runs the layer query from its form and shows the answer, escaped', async () => {
    const form = await page(`${featureServer(name)}/0/query`, { token });
    expect(form.text).toContain('<textarea name="where"');
    expect(form.text).not.toContain('id="query-results"');
    const answer = await page(`${featureServer(name)}/0/query`, {
      token,
      where: "Name <> 'Plain'",
      outFields: '*',
    });
    expect(answer.text).toContain('Features: 1');
    expect(answer.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(answer.text).toContain('a &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; note');
    expect(answer.text).not.toContain('<script>alert(1)');
    const count = await page(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(count.text).toContain('Count: 2');
    // A parameter the form has no field for is still the query's.
    const extent = await page(`${featureServer(name)}/0/query`, {
      token,
      where: '1=1',
      returnExtentOnly: 'true',
      outSR: '4326',
    });
    expect(extent.text).toMatch(/<th>xmin<\/th><td>-87\.7<\/td>/);
    const bad = await page(`${featureServer(name)}/0/query`, { token, where: 'nonsense ==' });
    expect(bad.text).toContain('id="query-error"');
  });

  it('shows errors as pages, and asks for sign-in where a token is required', async () => {
    const missing = await page(featureServer(name));
    expect(missing.text).toContain('Error 499');
    expect(missing.text).toContain('Sign in');
  });

  it('leads a person from / and /sharing/rest to sign in, and once signed in to their content', async () => {
    for (const path of ['/', '/sharing/rest']) {
      const home = await page(path);
      expect(home.text).toContain('<form id="signin" method="post" action="/sharing/rest/generateToken"');
      expect(home.text).toContain('<script src="/static/signin.js" defer></script>');
    }
    const signedIn = await page('/', { token });
    expect(signedIn.text).toContain(
      `Signed in as <strong id="signed-in-user">${stack().admin.username}</strong>`,
    );
    const content = await page(`/sharing/rest/content/users/${stack().admin.username}`, { token });
    expect(content.text).toContain(`/rest/services/Hosted/${name}/FeatureServer?f=html&amp;token=${token}`);
  });

  it('serves Leaflet and the pages’ scripts from this origin', async () => {
    for (const [path, type] of [
      ['/static/leaflet/leaflet.js', 'text/javascript; charset=utf-8'],
      ['/static/leaflet/leaflet.css', 'text/css; charset=utf-8'],
      ['/static/viewer.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await fetch(`${stack().baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
    }
    expect((await fetch(`${stack().baseUrl}/static/../package.json`)).status).toBe(404);
  });
});
