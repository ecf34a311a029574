/** Helpers of the cache lifecycle tests: the servers' clients, source-table edits, a cache's bundles. */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { sql } from 'drizzle-orm';
import { createTileActivities } from '../../../activities/tiles/tile-activities.js';
import type { TileDeps } from '../../../activities/tiles/tile-deps.js';
import type { AppDeps } from '../../../api/env.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { insertItem } from '../../../db/repositories/items.js';
import { listLayers } from '../../../db/repositories/services.js';
import { insertTileCache } from '../../../db/repositories/tile-caches.js';
import { createObjectStore, type ObjectStore } from '../../../infra/object-store.js';
import { workflowsPath } from '../../../infra/temporal.js';
import { cachePrefix } from '../../../infra/tile-cache-store.js';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';
import { decodeBundle } from '../../../lib/tiles/compact-bundle.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { stack } from '../support/portal-client.js';

export async function openServers(poolSize = 4) {
  const s = stack();
  const database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize });
  const store = createObjectStore({
    ...s.minio,
    endpoint: new URL(s.minio.endpoint),
    consolePort: 0,
  } as never);
  const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
  return { database, store, client };
}

/**
 * Runs `body` while a worker of the tile activities made from `deps` (a lowered read cap, say) serves
 * `taskQueue`, with a client of its own.
 */
export async function withTileWorker<T>(
  deps: TileDeps,
  taskQueue: string,
  body: (client: Client) => Promise<T>,
): Promise<T> {
  const s = stack();
  const connection = await NativeConnection.connect({ address: s.temporalAddress });
  const activities = createTileActivities(deps);
  const worker = await Worker.create({ connection, taskQueue, workflowsPath, activities });
  const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
  try {
    return await worker.runUntil(() => body(client));
  } finally {
    await connection.close();
    await client.connection.close();
  }
}

/** What `refreshCachesAfterEdit` needs, with refreshes started on `taskQueue`. */
export const editDeps = (database: DatabaseHandle, client: Client, taskQueue: string) =>
  ({
    database,
    temporal: async () => client,
    config: { temporal: { taskQueue } },
    log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
  }) as unknown as AppDeps;

/** The feature table of a hosted feature service's only layer. */
export async function featureTable(database: DatabaseHandle, serviceItemId: string): Promise<string> {
  const [layer] = await listLayers(database.db, serviceItemId);
  return layer.tableName;
}

/** Inserts a point straight into a feature table (as an edit commits it) and returns its Web Mercator box. */
export async function insertPoint(
  database: DatabaseHandle,
  table: string,
  objectId: number,
  lon: number,
  lat: number,
): Promise<[number, number, number, number]> {
  const [x, y] = lonLatToMercator(lon, lat);
  await database.rows(
    sql.raw(
      `insert into "${table}" (objectid, shape, bbox) values (${objectId}, '{"x":${x},"y":${y}}', '(${x},${y}),(${x},${y})')`,
    ),
  );
  return [x, y, x, y];
}

/** Every bundle object of a cache, by its path below `_alllayers/`. */
export async function bundleObjects(store: ObjectStore, serviceItemId: string): Promise<Map<string, Buffer>> {
  const prefix = `${cachePrefix(serviceItemId)}_alllayers/`;
  const out = new Map<string, Buffer>();
  for (const key of (await store.list(prefix)).sort())
    out.set(key.slice(prefix.length), await store.getBuffer(key));
  return out;
}

/** A bundle's tiles, slot → base64 of the tile's bytes: whole bundles compare tile for tile. */
export function bundleTiles(bundle: Uint8Array): Map<number, string> {
  const out = new Map<number, string>();
  for (const [slot, bytes] of decodeBundle(bundle)) out.set(slot, Buffer.from(bytes).toString('base64'));
  return out;
}

/**
 * A Map Service item (tiles answer those who may read it: here its owner, the stack's administrator) and
 * its cache row, building, drawn from `sourceServiceItemId` over `minLevel`-`maxLevel`: what a tile
 * publish makes before its build workflow runs, for tests that run that workflow on a worker of their own.
 */
export async function insertBuildingCache(
  database: DatabaseHandle,
  cache: {
    serviceItemId: string;
    name: string;
    sourceServiceItemId: string;
    minLevel: number;
    maxLevel: number;
    serviceType?: 'MapServer' | 'VectorTileServer';
  },
): Promise<void> {
  const owner = stack().admin.username;
  const now = Date.now();
  const { serviceItemId, name, sourceServiceItemId, minLevel, maxLevel } = cache;
  const vector = cache.serviceType === 'VectorTileServer';
  const type = vector ? 'Vector Tile Service' : 'Map Service';
  await insertItem(database.db, {
    id: serviceItemId,
    owner,
    title: name,
    name,
    type,
    typeKeywords: [type, 'Hosted Service'],
    created: now,
    modified: now,
  });
  await insertTileCache(database.db, {
    serviceItemId,
    name,
    owner,
    serviceType: vector ? 'VectorTileServer' : 'MapServer',
    sourceServiceItemId,
    status: 'building',
    definition: webMercatorCache({ minLevel, maxLevel }),
    service: { layers: [] },
    created: now,
    modified: now,
  });
}
