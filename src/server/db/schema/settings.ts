import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { DocumentKind, IdentitySnapshot, Signatory } from '../../../shared/schemas/operator-identity.ts';
import { bytea } from './columns.ts';
import { users } from './users.ts';

/** The operator every document names (Settings): one row, id 1, written by an administrator. */
export const operatorIdentity = pgTable(
  'operator_identity',
  {
    id: smallint('id').primaryKey().default(1),
    registered_name: text('registered_name').notNull(),
    trade_name: text('trade_name'),
    tin: text('tin').notNull(),
    branch_code: text('branch_code').notNull(),
    address: text('address').notNull(),
    signatories: jsonb('signatories').$type<Partial<Record<DocumentKind, Signatory>>>().notNull().default({}),
    logo: bytea('logo'),
    logo_updated_at: timestamp('logo_updated_at', { withTimezone: true }),
    updated_by: integer('updated_by').references(() => users.id),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('operator_identity_one_row', sql`${t.id} = 1`),
    check('operator_identity_tin', sql`${t.tin} ~ '^[0-9]{3}-[0-9]{3}-[0-9]{3}$'`),
    check('operator_identity_branch_code', sql`${t.branch_code} ~ '^[0-9]{3,5}$'`),
    check('operator_identity_logo_size', sql`octet_length(${t.logo}) <= 262144`),
  ],
);

/**
 * The identity a document regenerated from stored data printed the first time it was final (a closed count's certificate):
 * later downloads print this, whatever Settings says now. Written once per document, never changed.
 */
export const documentIdentities = pgTable(
  'document_identities',
  {
    kind: text('kind').$type<DocumentKind>().notNull(),
    document_id: integer('document_id').notNull(),
    snapshot: jsonb('snapshot').$type<IdentitySnapshot>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'document_identities_pk', columns: [t.kind, t.document_id] })],
);
