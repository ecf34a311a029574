import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Groups of the organization. The owner is also a member row with memberType 'owner'. */
export const groups = pgTable(
  'groups',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    owner: text('owner')
      .notNull()
      .references(() => users.username, { onUpdate: 'cascade' }),
    description: text('description').notNull().default(''),
    snippet: text('snippet').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    phone: text('phone').notNull().default(''),
    access: text('access').notNull().default('private'),
    isInvitationOnly: boolean('is_invitation_only').notNull().default(false),
    isViewOnly: boolean('is_view_only').notNull().default(false),
    sortField: text('sort_field').notNull().default('title'),
    sortOrder: text('sort_order').notNull().default('asc'),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('groups_title_lower_idx').on(sql`lower(${t.title})`),
    index('groups_owner_idx').on(t.owner),
  ],
);

/** Membership; removed with the group or the user. */
export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    username: text('username')
      .notNull()
      .references(() => users.username, { onDelete: 'cascade', onUpdate: 'cascade' }),
    memberType: text('member_type').notNull(),
    joined: bigint('joined', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.username] }), index('group_members_user_idx').on(t.username)],
);

/** Requests to join a group (community/groups/{id}/join), until a group administrator accepts or declines. */
export const groupApplications = pgTable(
  'group_applications',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    username: text('username')
      .notNull()
      .references(() => users.username, { onDelete: 'cascade', onUpdate: 'cascade' }),
    comments: text('comments').notNull().default(''),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.username] }),
    index('group_applications_user_idx').on(t.username),
  ],
);
