import proj4 from 'proj4';
import { badRequest } from '../errors.js';
import type { SpatialReference } from '../geometry/types.js';
import { wkidFromPrj } from './prj-wkid.js';
import { canonicalWkid, proj4ForWkid } from './wkid-table.js';

/** A spatial reference made ready for proj4. */
export interface ResolvedSpatialReference {
  /** The canonical wkid (aliases such as 102100 folded onto 3857), or null for WKT we do not recognise. */
  wkid: number | null;
  /** A proj4 definition: a PROJ string from the table, or the WKT text itself. */
  definition: string;
  /** Whether coordinates are longitude/latitude in degrees. */
  geographic: boolean;
}

const cache = new Map<string, ResolvedSpatialReference>();

/**
 * The wkid an Esri spatial reference names (canonical: 102100 → 3857). latestWkid wins as the
 * current EPSG code, unless only the wkid is one we know.
 */
export function wkidOf(sr: SpatialReference): number | null {
  const ids = [sr.latestWkid, sr.wkid].filter(
    (id): id is number => typeof id === 'number' && Number.isFinite(id),
  );
  const known = ids.find((id) => proj4ForWkid(id) !== undefined) ?? ids[0];
  return known === undefined ? null : canonicalWkid(known);
}

/**
 * The proj4 definition of a spatial reference given by wkid/latestWkid or by WKT; a known wkid wins
 * over WKT sent beside it. Throws a 400 GeoError for an unknown wkid or WKT proj4 cannot parse.
 */
export function resolveSpatialReference(sr: SpatialReference): ResolvedSpatialReference {
  const key = `wkid:${sr.latestWkid ?? ''}:${sr.wkid ?? ''}:wkt:${sr.wkt ?? ''}`;
  const known = cache.get(key);
  if (known) return known;
  const byWkid = [sr.latestWkid, sr.wkid].some(
    (id) => typeof id === 'number' && proj4ForWkid(id) !== undefined,
  );
  const resolved = sr.wkt && !byWkid ? resolveWkt(sr.wkt) : resolveWkid(sr);
  if (cache.size > 500) cache.clear(); // WKT keys come from uploads: keep the memo bounded.
  cache.set(key, resolved);
  return resolved;
}

function resolveWkid(sr: SpatialReference): ResolvedSpatialReference {
  // A latestWkid we do not know may still come with a wkid we do (and the reverse).
  for (const id of [sr.latestWkid, sr.wkid]) {
    if (typeof id !== 'number') continue;
    const definition = proj4ForWkid(id);
    if (definition) return { wkid: canonicalWkid(id), definition, geographic: isGeographic(definition) };
  }
  const named = sr.latestWkid ?? sr.wkid;
  if (named === undefined)
    throw badRequest('Invalid spatial reference.', ['The spatial reference has no wkid or wkt.']);
  throw badRequest('Invalid spatial reference.', [`Unknown spatial reference wkid ${named}.`]);
}

function resolveWkt(wkt: string): ResolvedSpatialReference {
  const wkid = wkidFromPrj(wkt);
  const fromTable = wkid === undefined ? undefined : proj4ForWkid(wkid);
  if (wkid !== undefined && fromTable) {
    return { wkid: canonicalWkid(wkid), definition: fromTable, geographic: isGeographic(fromTable) };
  }
  return { wkid: null, definition: wkt, geographic: isGeographic(wkt) };
}

/** Parses a definition with proj4; a definition it cannot read is the client's error (400). */
function isGeographic(definition: string): boolean {
  let projection: { projName?: string };
  try {
    projection = proj4.Proj(definition) as { projName?: string };
  } catch (e) {
    throw badRequest('Invalid spatial reference.', [
      `The spatial reference could not be parsed: ${e instanceof Error ? e.message : String(e)}`,
    ]);
  }
  if (!projection?.projName) {
    throw badRequest('Invalid spatial reference.', ['The spatial reference names no known projection.']);
  }
  return projection.projName === 'longlat';
}

/** Whether two spatial references are the same, seeing through aliases (102100 = 3857) and WKT. */
export function sameSpatialReference(a: SpatialReference, b: SpatialReference): boolean {
  const ia = wkidOf(a) ?? (a.wkt ? (wkidFromPrj(a.wkt) ?? null) : null);
  const ib = wkidOf(b) ?? (b.wkt ? (wkidFromPrj(b.wkt) ?? null) : null);
  if (ia !== null && ib !== null) return canonicalWkid(ia) === canonicalWkid(ib);
  if (a.wkt && b.wkt) return a.wkt.replace(/\s+/g, '') === b.wkt.replace(/\s+/g, '');
  return false;
}

/**
 * The spatial reference a layer or response reports for a wkid, in the shape Esri uses:
 * web mercator as {wkid: 102100, latestWkid: 3857}, others with latestWkid equal to wkid.
 */
export function spatialReferenceForWkid(wkid: number): SpatialReference {
  const id = canonicalWkid(wkid);
  if (id === 3857) return { wkid: 102100, latestWkid: 3857 };
  return { wkid: id, latestWkid: id };
}

/**
 * The spatial reference to store for a layer given what a client or a .prj said: a recognised WKT
 * becomes its wkid (so a layer says {wkid: 4326}, not the WKT), anything else is kept as WKT.
 */
export function normalizeSpatialReference(sr: SpatialReference): SpatialReference {
  const resolved = resolveSpatialReference(sr);
  return resolved.wkid !== null ? spatialReferenceForWkid(resolved.wkid) : { wkt: resolved.definition };
}
