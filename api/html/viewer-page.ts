/**
 * `/apps/viewer/{folder}/{name}/{FeatureServer|MapServer}`: a map of one service drawn by Leaflet from its
 * npm package (static/viewer.js): a MapServer's cached tiles, a FeatureServer's features with a popup
 * of their attributes (over the tiles of `tiles=Folder/Name/MapServer` when given), zoomed to the extent.
 * The token the page was opened with is passed on to every request the map makes.
 */
import { Hono } from 'hono';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { html, pageLink, rootPath, sendHtml } from './page.js';

const SERVICE_PATH = /^[A-Za-z0-9_]+\/[A-Za-z0-9_.-]+\/MapServer$/;

export function createViewerRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.get('/viewer/:folder/:name/:type{FeatureServer|MapServer}', (c) => {
    const { folder, name, type } = c.req.param();
    const tiles = c.get('params').get('tiles') ?? '';
    if (tiles && !SERVICE_PATH.test(tiles))
      throw badRequest("Invalid 'tiles'.", ["'tiles' names a tiled service as Folder/Name/MapServer."]);
    const service = rootPath(c, `/rest/services/${folder}/${name}/${type}`);
    return sendHtml(c, {
      title: `Map: ${folder}/${name} (${type})`,
      crumbs: [
        ['Services', pageLink(c, rootPath(c, '/rest/services'))],
        [`${folder}/${name}`, pageLink(c, service)],
      ],
      styles: ['leaflet/leaflet.css'],
      scripts: ['leaflet/leaflet.js', 'viewer.js'],
      body: html`<p id="viewer-status" role="status">Loading…</p>
<div id="map" data-service="${service}" data-type="${type}" data-token="${c.get('params').get('token') ?? ''}" data-tiles="${tiles ? rootPath(c, `/rest/services/${tiles}`) : ''}"></div>`,
    });
  });
  return router;
}
