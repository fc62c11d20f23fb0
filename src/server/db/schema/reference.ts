import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, lookup, updatedAt } from './columns.ts';

export const companyTypes = lookup('company_types');

export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('roles_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('locations_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    uniqueIndex('locations_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    company_type_id: smallint('company_type_id')
      .notNull()
      .references(() => companyTypes.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('companies_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('companies_company_type_idx').on(t.company_type_id),
    uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);

export const routes = pgTable(
  'routes',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    tin: text('tin').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('routes_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('routes_tin_trgm').using('gin', sql`${t.tin} gin_trgm_ops`),
    index('routes_company_idx').on(t.company_id),
    uniqueIndex('routes_company_name_lower_uq').on(t.company_id, sql`lower(${t.name})`),
  ],
);

export const branches = pgTable(
  'branches',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    location_id: integer('location_id')
      .notNull()
      .references(() => locations.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('branches_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('branches_company_idx').on(t.company_id),
    index('branches_location_idx').on(t.location_id),
    uniqueIndex('branches_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);
