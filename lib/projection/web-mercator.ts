/**
 * Spherical web mercator (EPSG:3857) in plain arithmetic: the projection of every web map, so the
 * 4326⇄3857 pair skips proj4's general pipeline. Same formulas as proj4's merc with a=b=6378137.
 */
export const EARTH_RADIUS = 6378137;
/** The latitude where the mercator square ends (y = ±20037508.34 m). */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;

const DEG = Math.PI / 180;

export function lonLatToWebMercator(lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
  const x = EARTH_RADIUS * lon * DEG;
  const y = EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (clamped * DEG) / 2));
  return [x, y];
}

export function webMercatorToLonLat(x: number, y: number): [number, number] {
  const lon = x / EARTH_RADIUS / DEG;
  const lat = (2 * Math.atan(Math.exp(y / EARTH_RADIUS)) - Math.PI / 2) / DEG;
  return [lon, lat];
}
