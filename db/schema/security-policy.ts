import { bigint, boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** The organization's password policy; no row means the default policy. */
export const passwordPolicies = pgTable('password_policies', {
  singleton: boolean('singleton').primaryKey().default(true),
  minLength: integer('min_length').notNull(),
  minUpper: integer('min_upper'),
  minLower: integer('min_lower'),
  minLetter: integer('min_letter'),
  minDigit: integer('min_digit'),
  minOther: integer('min_other'),
  expirationInDays: integer('expiration_in_days'),
  historySize: integer('history_size'),
  created: bigint('created', { mode: 'number' }).notNull(),
  modified: bigint('modified', { mode: 'number' }).notNull(),
});

/** Hashes of each user's earlier passwords, newest last, for the history rule. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: serial('id').primaryKey(),
    username: text('username')
      .notNull()
      .references(() => users.username, { onDelete: 'cascade', onUpdate: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    created: bigint('created', { mode: 'number' }).notNull(),
  },
  (t) => [index('password_history_user_idx').on(t.username)],
);
