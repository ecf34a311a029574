/**
 * What `rest/services/Hosted/{name}/MapServer` addresses: a cached map service (tile service) by that
 * name, with the feature service it was drawn from when that is still ready, or else a ready feature
 * service, which every hosted feature service gets as a dynamic map service as on ArcGIS. The caller
 * must be able to read the addressed service; reading features (export, identify, find, query) asks
 * for the feature service as well, as SOAP does.
 */
import type { Context } from 'hono';
import { findService, findServiceByName, type HostedServiceRow } from '../../db/repositories/services.js';
import { ROW_TTL_MS } from '../../db/repositories/tile-cache-rows.js';
import type { TileCacheRow } from '../../db/repositories/tile-caches.js';
import type { ServedTiles } from '../../infra/served-tiles.js';
import { GeoError } from '../../lib/errors.js';
import { isSoapFault } from '../../soap/fault.js';
import {
  type HostedMap,
  loadMap,
  type MapServerLocals,
  type MapServiceDeps,
} from '../../soap/handlers/map-context.js';
import { mapTileSource } from '../../soap/handlers/tile-cache-reader.js';
import { createMapServiceDeps } from '../../soap/service.js';
import type { SoapContext } from '../../soap/service-types.js';
import type { AppEnv } from '../env.js';
import { publicRoot } from '../urls.js';
import { serviceNotFound } from './hosted-layer.js';
import { createServiceAuthorizer, type ServiceAudience } from './service-access.js';

export interface MapTarget {
  /** The tile cache by this name, if the name is a cached map service's. */
  cache: TileCacheRow | null;
  audience: ServiceAudience;
  /** The feature service whose layers the map draws (a cache's source), null when there is none. */
  service: HostedServiceRow | null;
}

export interface MapTargets {
  target(c: Context<AppEnv>): Promise<MapTarget>;
  /** The map as the caller sees it, for drawing and searching with the SOAP handlers' code. */
  open(
    c: Context<AppEnv>,
  ): Promise<{ map: HostedMap; deps: MapServiceDeps; ctx: SoapContext<MapServerLocals> }>;
}

/** `tiles`: the app's tile reader and cache rows, which SOAP and the tile routes share. */
export function createMapTargets(tiles: ServedTiles): MapTargets {
  const { rows } = tiles;
  const authorize = createServiceAuthorizer(ROW_TTL_MS);
  let mapDeps: MapServiceDeps | undefined;

  async function target(c: Context<AppEnv>): Promise<MapTarget> {
    const { db } = c.get('deps').database;
    const name = c.req.param('name') ?? '';
    const cache = await rows(db, 'MapServer', name);
    if (cache) {
      const audience = await authorize(db, cache.serviceItemId, c.get('user'));
      const source = cache.sourceServiceItemId ? await findService(db, cache.sourceServiceItemId) : undefined;
      return { cache, audience, service: source?.status === 'ready' ? source : null };
    }
    const service = await findServiceByName(db, name);
    if (service?.status !== 'ready') throw serviceNotFound();
    const audience = await authorize(db, service.serviceItemId, c.get('user'));
    return { cache: null, audience, service };
  }

  return {
    target,
    async open(c) {
      await target(c);
      const app = c.get('deps');
      mapDeps ??= createMapServiceDeps({
        database: app.database,
        store: app.store,
        now: app.now,
        tiles: mapTileSource(tiles.reader),
        cacheRows: rows,
      });
      const name = c.req.param('name') ?? '';
      const user = c.get('user');
      const locals: MapServerLocals = {
        user,
        mayRead: (serviceItemId) => authorize(app.database.db, serviceItemId, user),
      };
      const ctx: SoapContext<MapServerLocals> = {
        operation: 'ExportMapImage',
        serviceName: name,
        endpointUrl: `${publicRoot(c)}/services/Hosted/${name}/MapServer`,
        locals,
      };
      const map = await restErrors(() =>
        loadMap(mapDeps as MapServiceDeps, name, { viewer: user, mayRead: locals.mayRead }),
      );
      return { map, deps: mapDeps, ctx };
    },
  };
}

/** Runs code shared with SOAP, turning its faults into the REST error model (a client fault is a 400). */
export async function restErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isSoapFault(e)) throw new GeoError(e.body);
    throw e;
  }
}
