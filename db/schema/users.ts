import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    username: text('username').primaryKey(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    description: text('description').notNull().default(''),
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: bigint('password_changed_at', { mode: 'number' }).notNull(),
    disabled: boolean('disabled').notNull().default(false),
    created: bigint('created', { mode: 'number' }).notNull(),
    modified: bigint('modified', { mode: 'number' }).notNull(),
    lastLogin: bigint('last_login', { mode: 'number' }).notNull().default(-1),
  },
  (t) => [uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`)],
);

/** Tokens are random and stored only as their SHA-256 hash, so a database dump cannot be replayed. */
export const tokens = pgTable(
  'tokens',
  {
    hash: text('hash').primaryKey(),
    username: text('username')
      .notNull()
      .references(() => users.username, { onDelete: 'cascade', onUpdate: 'cascade' }),
    expires: bigint('expires', { mode: 'number' }).notNull(),
    client: text('client').notNull().default('requestip'),
    referer: text('referer'),
    /** The address a `client=ip` or `client=requestip` token is bound to. */
    ip: text('ip'),
    /** The token a server token was exchanged from: revoking that one revokes this one too. */
    parent: text('parent').references((): AnyPgColumn => tokens.hash, { onDelete: 'cascade' }),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('tokens_username_idx').on(t.username),
    index('tokens_expires_idx').on(t.expires),
    index('tokens_parent_idx').on(t.parent),
  ],
);

/**
 * Sign-in attempts counted per user name (`user:<lower-case name>`) and per client address
 * (`address:<ip>`), shared by every API process: past a limit each further failure locks the key for twice
 * as long as the one before, up to a ceiling.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    lastFailure: bigint('last_failure', { mode: 'number' }).notNull(),
    lockedUntil: bigint('locked_until', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('sign_in_throttle_last_failure_idx').on(t.lastFailure)],
);
