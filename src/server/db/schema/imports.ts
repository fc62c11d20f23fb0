import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/** docs/design.md §10: one import file (pads or users), dry run or applied, with its totals and errors as JSON. */
export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    dry_run: boolean('dry_run').notNull(),
    applied: boolean('applied').notNull(),
    file_name: text('file_name').notNull(),
    totals: text('totals').notNull(),
    errors: text('errors').notNull(),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [index('imports_created_idx').on(t.created_at), check('imports_kind_ck', sql`${t.kind} in ('pads', 'users')`)],
);
