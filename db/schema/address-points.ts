import { bigint, bigserial, doublePrecision, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Street-level reference data of the embedded locator, loaded by administrators (an OpenAddresses CSV).
 * The locator keeps its search structures in memory; this table is what survives a restart and what
 * other processes (workers) catch up from, in id order.
 */
export const addressPoints = pgTable(
  'address_points',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    lon: doublePrecision('lon').notNull(),
    lat: doublePrecision('lat').notNull(),
    number: text('number').notNull(),
    street: text('street').notNull(),
    unit: text('unit'),
    city: text('city'),
    district: text('district'),
    region: text('region'),
    postcode: text('postcode'),
    countryCode: text('country_code'),
    /** The uploaded file name or the CSV item id the point came from. */
    source: text('source').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [index('address_points_source_idx').on(t.source)],
);
