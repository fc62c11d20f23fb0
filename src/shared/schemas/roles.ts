import { z } from 'zod';
import { requiredText } from './common.ts';

export const roleSchema = z.object({ name: requiredText('Name', 100) });
export type RoleInput = z.input<typeof roleSchema>;

export const rolesQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  search: z.string().trim().max(200).optional(),
});

export interface Role {
  id: number;
  name: string;
  /** Roles 1 to 11 carry the rules of spec §6: they can be renamed but not deleted. */
  is_system: boolean;
}
