import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { groups } from './groups.js';
import { users } from './users.js';

/** A user's folders (one level, as in the portal); the root folder has no row. */
export const folders = pgTable(
  'folders',
  {
    id: text('id').primaryKey(),
    owner: text('owner')
      .notNull()
      .references(() => users.username, { onDelete: 'cascade', onUpdate: 'cascade' }),
    title: text('title').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [uniqueIndex('folders_owner_title_idx').on(t.owner, sql`lower(${t.title})`)],
);

/** Portal items. Their files (and text data) live in MinIO under `dataKey`; the row holds the metadata. */
export const items = pgTable(
  'items',
  {
    id: text('id').primaryKey(),
    owner: text('owner')
      .notNull()
      .references(() => users.username, { onUpdate: 'cascade' }),
    folderId: text('folder_id').references(() => folders.id),
    title: text('title').notNull(),
    type: text('type').notNull(),
    typeKeywords: jsonb('type_keywords').$type<string[]>().notNull().default([]),
    /** The uploaded file's name, unique per owner folder. */
    name: text('name'),
    description: text('description').notNull().default(''),
    snippet: text('snippet').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    accessInformation: text('access_information').notNull().default(''),
    licenseInfo: text('license_info').notNull().default(''),
    culture: text('culture').notNull().default('en-us'),
    access: text('access').notNull().default('private'),
    url: text('url'),
    dataKey: text('data_key'),
    dataSize: bigint('data_size', { mode: 'number' }).notNull().default(0),
    dataContentType: text('data_content_type'),
    extent: jsonb('extent').$type<number[][]>(),
    spatialReference: text('spatial_reference'),
    properties: jsonb('properties').$type<Record<string, unknown>>(),
    /** The thumbnail's name under the item's info (`thumbnail/thumbnail.png`), shown as the item's `thumbnail`. */
    thumbnail: text('thumbnail'),
    protected: boolean('protected').notNull().default(false),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [index('items_owner_idx').on(t.owner), index('items_type_idx').on(t.type)],
);

/**
 * Files uploaded in parts (addItem with multipart=true, then addPart and commit): `partial` until the
 * commit joins the parts into the item's data, `completed` after (what the item's status reports).
 */
export const itemUploads = pgTable('item_uploads', {
  itemId: text('item_id')
    .primaryKey()
    .references(() => items.id, { onDelete: 'cascade' }),
  filename: text('filename').notNull(),
  status: text('status').notNull().$type<'partial' | 'completed'>(),
  /** The parts' bytes so far, held within the upload limit (UPLOAD_MAX_BYTES) for the whole file. */
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  created: bigint('created', { mode: 'number' }).notNull(),
});

/** Directional typed links between items; deleted with either item. */
export const itemRelationships = pgTable(
  'item_relationships',
  {
    originItemId: text('origin_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    destinationItemId: text('destination_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    relationshipType: text('relationship_type').notNull(),
    createdBy: text('created_by').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.originItemId, t.destinationItemId, t.relationshipType] }),
    index('item_relationships_destination_idx').on(t.destinationItemId),
  ],
);

/** Groups an item is shared with; a row goes with either the item or the group. */
export const itemGroups = pgTable(
  'item_groups',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    sharedBy: text('shared_by').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.groupId] }), index('item_groups_group_idx').on(t.groupId)],
);
