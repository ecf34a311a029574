/**
 * The path Hono routes on, normalised as ArcGIS Server reads URLs:
 * - runs of slashes collapse: clients that build URLs from a server root ending in `/` ask for
 *   `//rest/info` (@esri/arcgis-rest-request does, for a server at the host's root);
 * - a trailing slash is dropped: esri-leaflet asks for `…/FeatureServer/0/?f=json` and `…/MapServer/?f=json`;
 * - folder and service type names are matched in any case (`hosted/x/featureserver`), as ArcGIS Server
 *   does; service names are looked up case-insensitively by the repositories.
 */
import { getPath } from 'hono/utils/url';

/** Service types the app serves, by their lower-case spelling. */
const SERVICE_TYPES: Record<string, string> = {
  featureserver: 'FeatureServer',
  mapserver: 'MapServer',
  vectortileserver: 'VectorTileServer',
  geocodeserver: 'GeocodeServer',
};

/** The `Hosted` folder, in any case. */
const HOSTED = /\/services\/hosted(?=\/|$)/i;
/** `services/{folder?}/{name}/{type}` in any case: the type is folded. */
const SERVICE_PATH =
  /\/services\/((?:Hosted\/)?[^/]+)\/(featureserver|mapserver|vectortileserver|geocodeserver)(?=\/|$)/i;

export function requestPath(request: Request): string {
  let path = getPath(request);
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const hosted = HOSTED.exec(path);
  if (hosted && hosted[0] !== '/services/Hosted') {
    path = `${path.slice(0, hosted.index)}/services/Hosted${path.slice(hosted.index + hosted[0].length)}`;
  }
  const m = SERVICE_PATH.exec(path);
  if (m) {
    const canonical = `/services/${m[1]}/${SERVICE_TYPES[m[2].toLowerCase()]}`;
    if (canonical !== m[0]) path = path.slice(0, m.index) + canonical + path.slice(m.index + m[0].length);
  }
  return path;
}
