/**
 * The path Hono routes on, with runs of slashes collapsed: clients that build URLs from a server root
 * ending in `/` ask for `//rest/info` (@esri/arcgis-rest-request does, for a server at the host's root).
 */
import { getPath } from 'hono/utils/url';

export function requestPath(request: Request): string {
  const path = getPath(request);
  return path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
}
