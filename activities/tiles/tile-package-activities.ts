/**
 * Imports an uploaded tile package into a cache: .tpkx (Compact V2) bundles are copied byte for byte,
 * .tpk (Compact V1) bundles are rewritten as V2 with the same tiles, and a .vtpk's bundles, styles,
 * sprites and fonts are copied under the vector tile service's prefix. Bundles already recorded are
 * skipped, so a retried import only does what is left.
 */

import { findJob } from '../../db/repositories/jobs.js';
import {
  findBundle,
  findTileCache,
  recordBundle,
  updateTileCache,
} from '../../db/repositories/tile-caches.js';
import { publishSourceKey } from '../../infra/object-keys.js';
import { isSevenZip, sevenZipEntries } from '../../infra/service-definition.js';
import { bundleKey, confCdiKey, confXmlKey, resourceKey } from '../../infra/tile-cache-store.js';
import { badRequest, internalError, isGeoError } from '../../lib/errors.js';
import { DEFAULT_ARCHIVE_BUDGET, unzipWithBudget } from '../../lib/ingest/archive-budget.js';
import { confCdi, confXml } from '../../lib/tiles/cache-config.js';
import { BUNDLE_DIM, BundleBuilder } from '../../lib/tiles/compact-bundle.js';
import { parseBundlx, v1BundleTiles } from '../../lib/tiles/compact-bundle-v1.js';
import {
  describeTilePackage,
  type PackageReader,
  readPackageDefinition,
} from '../../lib/tiles/tile-package.js';
import { recordProgress } from '../heartbeat.js';
import { withFailureMapping } from '../publish/activity-errors.js';
import type { TileDeps } from './tile-deps.js';

export function createTilePackageActivities(deps: TileDeps) {
  const { database, store } = deps;
  const db = database.db;

  return withFailureMapping({
    async importTilePackage(jobId: string): Promise<{ bundles: number; tiles: number }> {
      const job = await findJob(db, jobId);
      const cache = job && (await findTileCache(db, job.serviceItemId));
      if (!job || !cache)
        throw internalError('Unable to complete operation.', [`Tile job ${jobId} does not exist.`]);
      const id = cache.serviceItemId;
      let entries: Map<string, Uint8Array>;
      const packaged = await store.getBuffer(publishSourceKey(jobId));
      const budget = deps.parseLimits?.archive ?? DEFAULT_ARCHIVE_BUDGET;
      if (isSevenZip(packaged)) {
        // A service definition carrying a tile cache.
        entries = new Map(Object.entries(await sevenZipEntries(packaged, budget)));
      } else {
        try {
          entries = await unzipWithBudget(packaged, budget);
        } catch (e) {
          throw badRequest('Unable to publish.', [
            `The tile package is not a readable zip file: ${isGeoError(e) ? e.details.join(' ') : String(e)}`,
          ]);
        }
      }
      const reader: PackageReader = {
        async read(path) {
          const bytes = entries.get(path);
          if (!bytes) throw badRequest('Unable to publish.', [`The package has no ${path}.`]);
          return bytes;
        },
      };
      const layout = describeTilePackage([...entries.keys()]);
      if ((layout.kind === 'vtpk') !== (cache.serviceType === 'VectorTileServer')) {
        throw badRequest('Unable to publish.', [
          `A ${layout.kind} file cannot be published as a ${cache.serviceType}.`,
        ]);
      }
      const definition = { ...(await readPackageDefinition(layout, reader)), storage: 'compactV2' as const };
      const service: Record<string, unknown> = { ...cache.service };
      if (layout.kind === 'vtpk') {
        service.root = JSON.parse(new TextDecoder().decode(await reader.read(layout.metadataPath)));
        const base = layout.metadataPath.slice(0, layout.metadataPath.length - 'root.json'.length);
        for (const path of layout.resources) {
          const bytes = await reader.read(`${base}${path}`);
          await store.put(resourceKey(id, path), Buffer.from(bytes), bytes.length);
        }
      }
      await updateTileCache(db, id, { definition, service, modified: deps.now() });
      await store.put(confXmlKey(id), confXml(definition), undefined, 'application/xml');
      if (definition.extent)
        await store.put(confCdiKey(id), confCdi(definition.extent, definition), undefined, 'application/xml');

      let tiles = 0;
      for (const [i, b] of layout.bundles.entries()) {
        recordProgress({ bundle: i });
        if (await findBundle(db, id, cache.generation, b.level, b.row0, b.col0)) continue;
        const raw = await reader.read(b.bundlePath);
        let bytes: Uint8Array;
        let count: number;
        if (b.bundlxPath) {
          const builder = new BundleBuilder();
          for (const t of v1BundleTiles(raw, parseBundlx(await reader.read(b.bundlxPath))))
            builder.setSlot(t.rowInBundle * BUNDLE_DIM + t.colInBundle, t.bytes);
          count = builder.tileCount;
          bytes = builder.toBytes();
        } else {
          bytes = raw;
          count = countTiles(raw);
        }
        if (count > 0)
          await store.put(bundleKey(id, b.level, b.row0, b.col0), Buffer.from(bytes), bytes.length);
        await recordBundle(db, id, cache.generation, {
          level: b.level,
          row0: b.row0,
          col0: b.col0,
          tileCount: count,
          bytes: bytes.length,
        });
        tiles += count;
      }
      return { bundles: layout.bundles.length, tiles };
    },
  });
}

/** Non-empty slots of a V2 bundle's index. */
function countTiles(bundle: Uint8Array): number {
  const v = new DataView(bundle.buffer, bundle.byteOffset, bundle.byteLength);
  let n = 0;
  for (let i = 0; i < BUNDLE_DIM * BUNDLE_DIM; i++) if (v.getUint32(64 + i * 8 + 4, true) >>> 8 > 0) n++;
  return n;
}

export type TilePackageActivities = ReturnType<typeof createTilePackageActivities>;
