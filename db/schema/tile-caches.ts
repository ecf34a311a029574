import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';

/**
 * Tile caches of hosted Map Services (and Vector Tile Services). A cache belongs to its own service
 * item; `sourceServiceItemId` names the feature service it is drawn from (null for an imported package).
 * Objects live under `caches/<serviceItemId>/` in the object store.
 */
export const tileCaches = pgTable(
  'tile_caches',
  {
    serviceItemId: text('service_item_id').primaryKey(),
    name: text('name').notNull(),
    owner: text('owner').notNull(),
    /** MapServer | VectorTileServer */
    serviceType: text('service_type').notNull(),
    sourceServiceItemId: text('source_service_item_id'),
    /** building | ready | failed */
    status: text('status').notNull(),
    definition: jsonb('definition').$type<CacheDefinition>().notNull(),
    /** Extra service JSON (layers, description, vector tile root.json…). */
    service: jsonb('service').$type<Record<string, unknown>>().notNull().default({}),
    /** Bumped on every rebuild, so served ETags change with the tiles. */
    generation: integer('generation').notNull().default(1),
    tileCount: bigint('tile_count', { mode: 'number' }).notNull().default(0),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('tile_caches_type_name_lower_idx').on(t.serviceType, sql`lower(${t.name})`),
    index('tile_caches_source_idx').on(t.sourceServiceItemId),
  ],
);

/** One row per finished bundle of a build: what a retried or resumed build skips. */
export const tileCacheBundles = pgTable(
  'tile_cache_bundles',
  {
    serviceItemId: text('service_item_id')
      .notNull()
      .references(() => tileCaches.serviceItemId, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    level: integer('level').notNull(),
    row0: integer('row0').notNull(),
    col0: integer('col0').notNull(),
    tileCount: integer('tile_count').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.serviceItemId, t.generation, t.level, t.row0, t.col0] })],
);
