import { z } from 'zod';
import { listQuery, requiredText, sortParams, text } from './common.ts';

export const roleSchema = z.object({ name: requiredText('Name', 100) });
export type RoleInput = z.input<typeof roleSchema>;

export const rolesQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  search: text('Search').trim().max(200).optional(),
});

export const roleRow = z
  .object({
    id: z.number(),
    name: z.string(),
    /** Roles 1 to 11 carry the rules of docs/spec.md §6: they can be renamed but not deleted. */
    is_system: z.boolean(),
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof roleRow>;

/** The Roles columns the list sorts by. */
export const ROLE_SORTS = ['id', 'name'] as const;
export const rolesPageQuery = listQuery.extend(sortParams(ROLE_SORTS));
export type RolesPageQuery = z.infer<typeof rolesPageQuery>;
