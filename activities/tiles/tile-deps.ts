import type { DatabaseHandle } from '../../db/client.js';
import type { ObjectStore } from '../../infra/object-store.js';
import type { ArchiveBudget } from '../../lib/ingest/archive-budget.js';

/** What the tile activities use; the worker passes the real ones in. */
export interface TileDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
  /** Archive limits of uploaded tile packages (the configuration's); the defaults when absent. */
  parseLimits?: { archive: ArchiveBudget };
  /** Most tiles one cache build may cover (TILE_BUILD_MAX_TILES); DEFAULT_TILE_BUDGET when absent. */
  maxTiles?: number;
  /** Features a bundle reads for a layer at once before it reads per metatile, in pages; featuresAtOnceOn(database) when absent. */
  featuresAtOnce?: number;
  /**
   * Most threads that draw raster tile ranges (TILE_DRAW_THREADS); 0 draws them on the activity's own
   * thread. One per core when absent.
   */
  drawThreads?: number;
  /** Features of a layer a vector tile range is encoded from at once; VECTOR_FEATURES_AT_ONCE when absent. */
  vectorFeaturesAtOnce?: number;
}
