import { bigint, boolean, pgTable, text } from 'drizzle-orm/pg-core';

/** The single organization this installation hosts; its id is generated once on first start. */
export const portals = pgTable('portals', {
  id: text('id').primaryKey(),
  // Unique and always true: concurrent first starts cannot create two organizations.
  singleton: boolean('singleton').notNull().default(true).unique(),
  name: text('name').notNull(),
  created: bigint('created', { mode: 'number' }).notNull(),
  modified: bigint('modified', { mode: 'number' }).notNull(),
});
