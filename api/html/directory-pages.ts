/**
 * `f=html` of the REST resources, as ArcGIS's services directory shows them: folders and services,
 * a service's layers and links to its viewer, a layer's fields, extent and capabilities with a link to
 * its query form. Each page is drawn from the same JSON the resource answers with `f=json`, so the two
 * never disagree; resources without a page of their own show that JSON as tables.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { jsonView } from './json-view.js';
import { Html, html, pageLink, rootPath, sendHtml } from './page.js';
import { portalHomePage } from './portal-pages.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, only to be shown
type Json = Record<string, any>;

const SERVICES =
  /^\/rest\/services(?:\/([^/]+))?(?:\/([^/]+)\/(FeatureServer|MapServer|VectorTileServer|GeocodeServer))?(?:\/(\d+))?\/?$/;

/** The request path below BASE_PATH. */
export function appPath(c: Context<AppEnv>): string {
  const base = c.get('deps').config.basePath;
  const path = new URL(c.req.url).pathname.replace(/\/{2,}/g, '/');
  return base && path.startsWith(base) ? path.slice(base.length) || '/' : path;
}

function crumbsOf(c: Context<AppEnv>, path: string): [string, string][] {
  const parts = path.split('/').filter(Boolean);
  const start = parts[0] === 'rest' ? 2 : parts[0] === 'sharing' ? 2 : parts.length;
  const out: [string, string][] = [];
  for (let i = start; i <= parts.length; i++) {
    const p = `/${parts.slice(0, i).join('/')}`;
    out.push([
      i === start ? (parts[0] === 'rest' ? 'Services' : 'Portal') : parts[i - 1]!,
      pageLink(c, rootPath(c, p)),
    ]);
  }
  return out.slice(0, -1);
}

const link = (c: Context<AppEnv>, path: string, label: unknown, extra: Record<string, string> = {}) =>
  html`<a href="${pageLink(c, rootPath(c, path), extra)}">${String(label)}</a>`;

function catalogPage(c: Context<AppEnv>, body: Json, folder: string | undefined): Html {
  const folders = (body.folders ?? []) as string[];
  const services = (body.services ?? []) as { name: string; type: string }[];
  return html`${folder ? html`<p>Folder: ${folder}</p>` : new Html('')}
<h2>Folders</h2>${folders.length ? html`<ul>${folders.map((f) => html`<li>${link(c, `/rest/services/${f}`, f)}</li>`)}</ul>` : html`<p>None</p>`}
<h2>Services</h2>${services.length ? html`<ul>${services.map((s) => html`<li>${link(c, `/rest/services/${s.name}/${s.type}`, s.name)} (${s.type})</li>`)}</ul>` : html`<p>None</p>`}`;
}

function extentView(e: Json | undefined): Html {
  if (!e || typeof e.xmin !== 'number') return html`<p>None</p>`;
  const sr = e.spatialReference ?? {};
  return html`<table class="props"><tr><th>XMin</th><td>${e.xmin}</td></tr><tr><th>YMin</th><td>${e.ymin}</td></tr><tr><th>XMax</th><td>${e.xmax}</td></tr><tr><th>YMax</th><td>${e.ymax}</td></tr><tr><th>Spatial reference</th><td>${sr.wkid ?? ''}${sr.latestWkid && sr.latestWkid !== sr.wkid ? ` (${sr.latestWkid})` : ''}</td></tr></table>`;
}

function servicePage(c: Context<AppEnv>, path: string, type: string, body: Json): Html {
  const layers = [...((body.layers ?? []) as Json[]), ...((body.tables ?? []) as Json[])];
  const viewer = type === 'FeatureServer' || type === 'MapServer';
  return html`<p>${String(body.serviceDescription ?? body.description ?? '')}</p>
${viewer ? html`<p>View in: ${link(c, `/apps/viewer${path.replace(/^\/rest\/services/, '')}`, 'Map viewer')}${type === 'FeatureServer' ? html` · <a href="${rootPath(c, path.replace(/FeatureServer$/, 'OGCFeatureServer'))}">OGC API – Features</a>` : new Html('')}</p>` : new Html('')}
<p>JSON: <a href="${pageLink(c, rootPath(c, path), { f: 'pjson' })}">${path}</a></p>
${layers.length ? html`<h2>Layers</h2><ul>${layers.map((l) => html`<li>${link(c, `${path}/${l.id}`, l.name)} (${l.id})</li>`)}</ul>` : new Html('')}
<h2>Capabilities</h2><p>${String(body.capabilities ?? '')}</p>
<h2>Full extent</h2>${extentView(body.fullExtent ?? body.extent)}
<h2>All properties</h2>${jsonView(c, body)}`;
}

function layerPage(c: Context<AppEnv>, path: string, body: Json): Html {
  const fields = (body.fields ?? []) as Json[];
  const capabilities = String(body.capabilities ?? '');
  const queryable = path.includes('/FeatureServer/') && /(^|,)\s*Query\s*(,|$)/i.test(capabilities);
  return html`<table class="props">
<tr><th>Name</th><td>${body.name}</td></tr>
<tr><th>Type</th><td>${body.type}</td></tr>
<tr><th>Geometry type</th><td>${body.geometryType ?? 'none'}</td></tr>
<tr><th>Description</th><td>${body.description ?? ''}</td></tr>
<tr><th>Max record count</th><td>${body.maxRecordCount ?? ''}</td></tr>
<tr><th>Capabilities</th><td>${capabilities}</td></tr>
</table>
<h2>Extent</h2>${extentView(body.extent)}
<h2>Fields</h2>${fields.length ? html`<table class="grid"><tr><th>Name</th><th>Type</th><th>Alias</th><th>Length</th></tr>${fields.map((f) => html`<tr><td>${f.name}</td><td>${f.type}</td><td>${f.alias ?? ''}</td><td>${f.length ?? ''}</td></tr>`)}</table>` : html`<p>None</p>`}
<h2>Supported operations</h2><p>${queryable ? link(c, `${path}/query`, 'Query') : 'None'}</p>
<h2>All properties</h2>${jsonView(c, body)}`;
}

function contentPage(c: Context<AppEnv>, body: Json): Html {
  const items = (body.items ?? []) as Json[];
  const folders = (body.folders ?? []) as Json[];
  return html`<h2>Items</h2>${
    items.length
      ? html`<table class="grid"><tr><th>Title</th><th>Type</th><th>Shared with</th><th>Service</th></tr>${items.map(
          (i) =>
            html`<tr><td>${link(c, `/sharing/rest/content/items/${i.id}`, i.title ?? i.id)}</td><td>${i.type}</td><td>${i.access}</td><td>${
              typeof i.url === 'string' && i.url ? html`<a href="${pageLink(c, i.url)}">${i.url}</a>` : ''
            }</td></tr>`,
        )}</table>`
      : html`<p>None</p>`
  }
<h2>Folders</h2>${folders.length ? html`<ul>${folders.map((f) => html`<li>${f.title ?? f.id}</li>`)}</ul>` : html`<p>None</p>`}
<p>${link(c, '/rest/services', 'Services directory')}</p>`;
}

/** The page of a JSON answer `body` of the resource at the request's path. */
export function sendDirectoryPage(c: Context<AppEnv>, body: unknown) {
  const path = appPath(c).replace(/\/$/, '') || '/';
  const json = (body ?? {}) as Json;
  const crumbs = crumbsOf(c, path);
  if (json.error) {
    const e = json.error as Json;
    return sendHtml(c, {
      title: `Error ${e.code}`,
      crumbs,
      body: html`<p class="error">${e.message}</p>${((e.details ?? []) as string[]).map((d) => html`<p>${d}</p>`)}${
        e.code === 499 || e.code === 498 ? html`<p>${link(c, '/', 'Sign in')}</p>` : new Html('')
      }`,
    });
  }
  if (path === '/sharing/rest') return portalHomePage(c);
  const m = SERVICES.exec(path);
  if (m) {
    const [, folder, name, type, layer] = m;
    if (!name)
      return sendHtml(c, {
        title: folder ? `Folder: ${folder}` : 'Services directory',
        crumbs,
        body: catalogPage(c, json, folder),
      });
    if (layer !== undefined)
      return sendHtml(c, {
        title: `Layer: ${json.name ?? layer} (${layer})`,
        crumbs,
        body: layerPage(c, path, json),
      });
    return sendHtml(c, {
      title: `${folder}/${name} (${type})`,
      crumbs,
      body: servicePage(c, path, type!, json),
    });
  }
  if (/^\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?$/.test(path))
    return sendHtml(c, { title: 'Content', crumbs, body: contentPage(c, json) });
  return sendHtml(c, { title: path.split('/').pop() || 'Geoportal', crumbs, body: jsonView(c, json) });
}
