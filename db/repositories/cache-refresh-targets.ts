/**
 * What committed edits of a hosted feature service ask of the tile caches drawn from it: which caches
 * (Map and Vector Tile Service caches alike) and which Web Mercator areas they must draw again. The
 * API signals the refreshes through its Temporal client, a job's workflow through child workflows.
 */
import { type Bounds, type SpatialReference, WEB_MERCATOR } from '../../lib/geometry/types.js';
import { toMercator } from '../../lib/projection/project-bounds.js';
import type { Database } from '../client.js';
import { findService } from './services.js';
import { refreshableCachesOfSource } from './tile-caches.js';

export interface CacheRefreshTargets {
  caches: string[];
  /** Web Mercator envelopes; empty when no cache is drawn from the service or nothing finite changed. */
  areas: Bounds[];
}

/** `areas`: envelopes of the edits in the service's storage spatial reference. */
export async function cacheRefreshTargets(
  db: Database,
  sourceServiceItemId: string,
  areas: readonly Bounds[],
): Promise<CacheRefreshTargets> {
  if (!areas.some(finiteArea)) return { caches: [], areas: [] };
  const caches = await refreshableCachesOfSource(db, sourceServiceItemId);
  if (caches.length === 0) return { caches: [], areas: [] };
  const service = await findService(db, sourceServiceItemId);
  const storageSR = (service?.definition.spatialReference as SpatialReference | undefined) ?? WEB_MERCATOR;
  return { caches, areas: mercatorAreas(areas, storageSR) };
}

const finiteArea = (a: Bounds): boolean => a.every(Number.isFinite);

/** The finite ones of `areas` (in `storageSR`), in Web Mercator as the caches' tiles are. */
export const mercatorAreas = (areas: readonly Bounds[], storageSR: SpatialReference): Bounds[] =>
  areas.filter(finiteArea).map((a) => toMercator(a, storageSR));
