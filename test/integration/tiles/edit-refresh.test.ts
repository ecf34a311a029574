/**
 * Refreshing a cache after edits: a feature inserted into the source table where the cache had no
 * tile. `refreshCachesAfterEdit` signals the cache's one refresh workflow; the round draws only the
 * bundles the edited area touches, appends the new tiles to them, and switches the cache to a new
 * generation: the new feature's tile appears with its pixel coloured, untouched bundle objects are not
 * rewritten, untouched tiles keep their bytes and every tile gets a new ETag.
 */
import { Client, Connection } from '@temporalio/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../api/env.js';
import { refreshCachesAfterEdit } from '../../../api/services/cache-refresh.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { listLayers } from '../../../db/repositories/services.js';
import { findTileCache } from '../../../db/repositories/tile-caches.js';
import { createObjectStore } from '../../../infra/object-store.js';
import { bundleKey, explodedKey } from '../../../infra/tile-cache-store.js';
import { refreshPlan } from '../../../lib/tiles/refresh-areas.js';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import {
  type TileCacheRefreshResult,
  tileCacheRefreshWorkflowId,
} from '../../../workflows/tile-cache-messages.js';
import { uniqueName } from '../publish/publish-client.js';
import { signIn, stack } from '../support/portal-client.js';
import { decodePng, fetchTile, pixelOf, publishFeatures, publishTiles } from './tile-client.js';

const OLD = { lon: -87.6, lat: 41.9 };
// Far enough from the old points to fall into other bundles at level 12, near enough to share at 10.
const NEW = { lon: -75.0, lat: 42.5 };

describe('refreshing a cache after an edit of its source data', () => {
  const name = uniqueName('refreshed');
  let database: DatabaseHandle;
  let store: ReturnType<typeof createObjectStore>;
  let client: Client;
  let cacheId: string;
  let sourceId: string;
  const before = new Map<string, string>();
  let oldTile: { bytes: Buffer; etag: string | null };
  let oldTile10: Buffer;
  let result: TileCacheRefreshResult;
  let generationBefore: number;

  beforeAll(async () => {
    const s = stack();
    database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    store = createObjectStore({ ...s.minio, endpoint: new URL(s.minio.endpoint), consolePort: 0 } as never);
    client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
    const token = await signIn();
    const features = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('refresh_src'));
    sourceId = features.serviceItemId;
    const { service, status } = await publishTiles(token, sourceId, { name, levels: '10-12' });
    expect(status.status).toBe('completed');
    cacheId = service.serviceItemId;
    generationBefore = (await findTileCache(database.db, cacheId))?.generation ?? 0;
    const bundles = await database.rows<{ level: number; row0: number; col0: number }>(
      (await import('drizzle-orm'))
        .sql`select level, row0, col0 from tile_cache_bundles where service_item_id = ${cacheId}`,
    );
    for (const b of bundles) {
      const key = bundleKey(cacheId, b.level, b.row0, b.col0);
      const st = await store.stat(key);
      if (st) before.set(key, st.etag);
    }
    const { tile } = pixelOf(OLD.lon, OLD.lat, 12);
    const res = await fetchTile(name, 12, tile.row, tile.col);
    oldTile = { bytes: Buffer.from(await res.arrayBuffer()), etag: res.headers.get('etag') };
    const at10 = pixelOf(OLD.lon, OLD.lat, 10).tile;
    oldTile10 = Buffer.from(await (await fetchTile(name, 10, at10.row, at10.col)).arrayBuffer());

    const [layer] = await listLayers(database.db, sourceId);
    const [x, y] = lonLatToMercator(NEW.lon, NEW.lat);
    await database.rows(
      sql.raw(
        `insert into "${layer.tableName}" (objectid, shape, bbox) values (1000, '{"x":${x},"y":${y}}', '(${x},${y}),(${x},${y})')`,
      ),
    );
    const deps = {
      database,
      temporal: async () => client,
      config: { temporal: { taskQueue: s.taskQueue } },
      log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
    } as unknown as AppDeps;
    // Three quick edits of the same place: they merge into the one refresh run of the cache.
    for (let i = 0; i < 3; i++) await refreshCachesAfterEdit(deps, sourceId, [[x, y, x, y]]);
    result = await client.workflow.getHandle(tileCacheRefreshWorkflowId(cacheId)).result();
  }, 240_000);

  afterAll(async () => {
    await client?.connection.close();
    await database?.close?.();
  });

  it('draws the new feature: its tile appears with its pixel coloured', async () => {
    const { tile, px, py } = pixelOf(NEW.lon, NEW.lat, 12);
    let res = await fetchTile(name, 12, tile.row, tile.col);
    for (let i = 0; i < 30 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await fetchTile(name, 12, tile.row, tile.col);
    }
    expect(res.status).toBe(200);
    const pixel = await decodePng(await res.arrayBuffer());
    expect(pixel(px, py)[3]).toBeGreaterThan(0);
  });

  it('rewrites exactly the bundles the edited area touches, in one or two rounds', async () => {
    const [x, y] = lonLatToMercator(NEW.lon, NEW.lat);
    const cache = await findTileCache(database.db, cacheId);
    const layers = await listLayers(database.db, sourceId);
    expect(layers.length).toBe(1);
    const plan = refreshPlan([[x, y, x, y]], 10, 12, 0);
    const planned = new Set(plan.map((b) => bundleKey(cacheId, b.level, b.row0, b.col0)));
    expect(result.rounds).toBeGreaterThanOrEqual(1);
    expect(result.rounds).toBeLessThanOrEqual(2);
    expect(result.bundlesWritten / result.rounds).toBe(planned.size);
    expect(cache?.generation).toBe(generationBefore + result.rounds);
    let untouched = 0;
    for (const [key, etag] of before) {
      if (planned.has(key)) continue;
      untouched++;
      expect((await store.stat(key))?.etag).toBe(etag);
    }
    expect(untouched).toBeGreaterThan(0);
  });

  it('keeps the bytes of untouched tiles and serves every tile under a new ETag', async () => {
    const { tile } = pixelOf(OLD.lon, OLD.lat, 12);
    let res = await fetchTile(name, 12, tile.row, tile.col);
    for (let i = 0; i < 30 && res.headers.get('etag') === oldTile.etag; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await fetchTile(name, 12, tile.row, tile.col);
    }
    expect(res.headers.get('etag')).not.toBe(oldTile.etag);
    expect(Buffer.from(await res.arrayBuffer()).equals(oldTile.bytes)).toBe(true);
  });

  it('keeps old tiles of a touched bundle readable through the new index', async () => {
    const { tile } = pixelOf(OLD.lon, OLD.lat, 10);
    const [x, y] = lonLatToMercator(NEW.lon, NEW.lat);
    const shared = refreshPlan([[x, y, x, y]], 10, 10, 0)[0];
    expect(shared.row0).toBe(tile.row - (tile.row % 128));
    expect(shared.col0).toBe(tile.col - (tile.col % 128));
    const res = await fetchTile(name, 10, tile.row, tile.col);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(oldTile10)).toBe(true);
  });
});

describe('refreshing an exploded cache after an edit', () => {
  it('writes the new tile object and leaves the untouched ones as they were', async () => {
    const s = stack();
    const database = await openDatabase({ databaseUrl: s.databaseUrl, poolSize: 2 });
    const store = createObjectStore({
      ...s.minio,
      endpoint: new URL(s.minio.endpoint),
      consolePort: 0,
    } as never);
    const client = new Client({ connection: await Connection.connect({ address: s.temporalAddress }) });
    try {
      const token = await signIn();
      const name = uniqueName('refreshed_exploded');
      const source = await publishFeatures(token, 'points.geojson', 'geojson', uniqueName('refresh_ex_src'));
      const { service, status } = await publishTiles(token, source.serviceItemId, {
        name,
        levels: '12-12',
        storageFormat: 'esriMapCacheStorageModeExploded',
      });
      expect(status.status).toBe('completed');
      const oldTile = pixelOf(OLD.lon, OLD.lat, 12).tile;
      const oldKey = explodedKey(service.serviceItemId, oldTile);
      const oldEtag = (await store.stat(oldKey))?.etag;
      expect(oldEtag).toBeDefined();
      const [layer] = await listLayers(database.db, source.serviceItemId);
      const [x, y] = lonLatToMercator(NEW.lon, NEW.lat);
      await database.rows(
        sql.raw(
          `insert into "${layer.tableName}" (objectid, shape, bbox) values (1000, '{"x":${x},"y":${y}}', '(${x},${y}),(${x},${y})')`,
        ),
      );
      const deps = {
        database,
        temporal: async () => client,
        config: { temporal: { taskQueue: s.taskQueue } },
        log: { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} },
      } as unknown as AppDeps;
      await refreshCachesAfterEdit(deps, source.serviceItemId, [[x, y, x, y]]);
      const result: TileCacheRefreshResult = await client.workflow
        .getHandle(tileCacheRefreshWorkflowId(service.serviceItemId))
        .result();
      expect(result.tilesDrawn).toBeGreaterThanOrEqual(1);
      const newTile = pixelOf(NEW.lon, NEW.lat, 12).tile;
      expect(await store.stat(explodedKey(service.serviceItemId, newTile))).toBeDefined();
      expect((await store.stat(oldKey))?.etag).toBe(oldEtag);
    } finally {
      await client.connection.close();
      await database.close();
    }
  }, 240_000);
});
