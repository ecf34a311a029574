import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { groups } from './groups.js';
import { users } from './users.js';

/** Collaborations hosted by this portal, with the host contact given at creation. */
export const collaborations = pgTable('collaborations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  hostPortalId: text('host_portal_id').notNull(),
  owner: text('owner')
    .notNull()
    .references(() => users.username, { onUpdate: 'cascade' }),
  config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
  contactFirstName: text('contact_first_name').notNull().default(''),
  contactLastName: text('contact_last_name').notNull().default(''),
  contactEmail: text('contact_email').notNull().default(''),
  created: bigint('created', { mode: 'number' }).notNull(),
  modified: bigint('modified', { mode: 'number' }).notNull(),
});

/** Workspaces of a collaboration; the host's group link is held on the row (one host portal). */
export const collaborationWorkspaces = pgTable(
  'collaboration_workspaces',
  {
    id: text('id').primaryKey(),
    collaborationId: text('collaboration_id')
      .notNull()
      .references(() => collaborations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    // A deleted group unlinks the workspace rather than leaving an id that points nowhere.
    portalGroupId: text('portal_group_id').references(() => groups.id, { onDelete: 'set null' }),
    accessMode: text('access_mode').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [index('collaboration_workspaces_collaboration_idx').on(t.collaborationId)],
);
