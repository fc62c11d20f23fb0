import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, lookup, updatedAt } from './columns.ts';
import { branches, roles } from './reference.ts';

export const userStatuses = lookup('user_statuses');

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    first_name: text('first_name').notNull(),
    middle_name: text('middle_name'),
    last_name: text('last_name').notNull(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    contact_number: text('contact_number'),
    branch_id: integer('branch_id').references(() => branches.id),
    role_id: integer('role_id').references(() => roles.id),
    user_status_id: smallint('user_status_id')
      .notNull()
      .references(() => userStatuses.id),
    badge_version: integer('badge_version').notNull().default(1),
    /** A password an administrator chose (or the generated first-admin one): the user must replace it before anything else. */
    must_change_password: boolean('must_change_password').notNull().default(false),
    is_demo: smallint('is_demo').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_search_trgm').using(
      'gin',
      sql`(${t.first_name} || ' ' || coalesce(${t.middle_name}, '') || ' ' || ${t.last_name} || ' ' || ${t.email}) gin_trgm_ops`,
    ),
    index('users_role_idx').on(t.role_id),
    index('users_branch_idx').on(t.branch_id),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('access_tokens_user_idx').on(t.user_id)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.user_id)],
);
