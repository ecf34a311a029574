/**
 * Recognises the well-known id of a .prj (ESRI WKT) or OGC WKT text, so a layer published from a
 * shapefile reports `{wkid: 26915}` rather than carrying the WKT. Tried in turn: the top-level
 * AUTHORITY/ID of OGC WKT, then the name of the coordinate system in its ESRI or EPSG spelling,
 * then US State Plane zone names.
 */

import { statePlaneWkid } from './state-plane.js';

/** Names after canonicalName(): ESRI spellings (GCS_WGS_1984) and EPSG ones (WGS 84) meet here. */
const NAMED: Record<string, number> = {
  wgs84: 4326,
  nad83: 4269,
  nad27: 4267,
  nad83harn: 4152,
  nad832011: 6318,
  etrs89: 4258,
  osgb36: 4277,
  rgf1993: 4171,
  rgf93: 4171,
  gda94: 4283,
  gda2020: 7844,
  wgs1972: 4322,
  jgd2000: 4612,
  jgd2011: 6668,
  sirgas2000: 4674,
  chinageodeticcoordinatesystem2000: 4490,
  wgs84webmercatorauxiliarysphere: 3857,
  wgs84webmercator: 3857,
  wgs84pseudomercator: 3857,
  wgs84worldmercator: 3395,
  britishnationalgrid: 27700,
  osgb36britishnationalgrid: 27700,
  rgf1993lambert93: 2154,
  rgf93lambert93: 2154,
  rgf93v1lambert93: 2154,
  etrs89laea: 3035,
  etrs89laeaeurope: 3035,
  etrs89extendedlaeaeurope: 3035,
  etrs89lcc: 3034,
  etrs89lcceurope: 3034,
  amersfoortrdnew: 28992,
  nad83contiguoususaalbers: 5070,
  nad83conusalbers: 5070,
  usacontiguousalbersequalareaconic: 102003,
  usacontiguousalbersequalareaconicusgsversion: 102039,
  northamericaalbersequalareaconic: 102008,
  nzgd2000newzealandtransversemercator: 2193,
  nzgd2000newzealandtransversemercator2000: 2193,
  gda94australiaalbers: 3577,
  gda94australianalbers: 3577,
  ch1903lv95: 2056,
  ch1903lv03: 21781,
  belgelambert1972: 31370,
  belge1972belgianlambert72: 31370,
  dhdn3degreegausszone3: 31467,
  dhdn3degreegausszone4: 31468,
  dhdn3degreegausskrugerzone3: 31467,
  dhdn3degreegausskrugerzone4: 31468,
  sweref99tm: 3006,
  etrs89tm35fin: 3067,
  etrs89tm35finen: 3067,
  etrs89finlandtm35fin: 3067,
  montemarioitaly1: 3003,
  montemarioitaly2: 3004,
  nad83bcenvironmentalbers: 3005,
  nad83bcalbers: 3005,
  nad83canadaatlaslambert: 3978,
  worldmollweide: 54009,
  worldrobinson: 54030,
  worldequidistantcylindrical: 54002,
};

type ZoneRule = [RegExp, (zone: number, north: boolean) => number | undefined];

const within = (z: number, lo: number, hi: number, base: number): number | undefined =>
  z >= lo && z <= hi ? base + z : undefined;

/** Zone families, matched on canonical names: the wkid follows from the zone and hemisphere. */
const ZONES: ZoneRule[] = [
  [/^wgs84utmzone(\d{1,2})([ns])$/, (z, n) => within(z, 1, 60, n ? 32600 : 32700)],
  [/^nad83utmzone(\d{1,2})(n)$/, (z) => within(z, 1, 23, 26900)],
  [/^nad27utmzone(\d{1,2})(n)$/, (z) => within(z, 1, 22, 26700)],
  [/^etrs89utmzone(\d{1,2})(n)$/, (z) => within(z, 28, 38, 25800)],
  [/^gda94mgazone(\d{1,2})()$/, (z) => within(z, 48, 58, 28300)],
  [/^gda2020mgazone(\d{1,2})()$/, (z) => within(z, 46, 59, 7800)],
  [/^sirgas2000utmzone(\d{1,2})([ns])$/, (z, n) => (n ? within(z, 17, 22, 31954) : within(z, 17, 25, 31960))],
  [/^wgs1972utmzone(\d{1,2})([ns])$/, (z, n) => within(z, 1, 60, n ? 32200 : 32300)],
];

/** Lower-case letters and digits only, with the datum spellings of ESRI and EPSG made one. */
export function canonicalName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/^gcs/, '')
    .replace('northamerican1983', 'nad83')
    .replace('northamerican1927', 'nad27')
    .replace('nad1983', 'nad83')
    .replace('nad1927', 'nad27')
    .replace('wgs1984', 'wgs84')
    .replace('etrs1989', 'etrs89')
    .replace('gda1994', 'gda94')
    .replace('osgb1936', 'osgb36');
}

/** The wkid the WKT text stands for, or undefined when it is not one we recognise. */
export function wkidFromPrj(wkt: string): number | undefined {
  const text = wkt.trim();
  // Only the authority closing the outermost bracket names the whole CRS (inner ones name its datum).
  const authority = text.match(
    /(?:AUTHORITY\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]|ID\[\s*"EPSG"\s*,\s*(\d+)\s*\])\s*\]\s*$/i,
  );
  if (authority) return Number(authority[1] ?? authority[2]);
  const head = text.match(
    /^(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS|PROJECTEDCRS|GEOGRAPHICCRS|GEODCRS)\s*\[\s*"([^"]+)"/i,
  );
  if (!head) return undefined;
  const name = canonicalName(head[1]);
  if (NAMED[name] !== undefined) return NAMED[name];
  const statePlane = statePlaneWkid(head[1]);
  if (statePlane !== undefined) return statePlane;
  for (const [pattern, toWkid] of ZONES) {
    const m = name.match(pattern);
    if (m) return toWkid(Number(m[1]), m[2] !== 's');
  }
  return undefined;
}
