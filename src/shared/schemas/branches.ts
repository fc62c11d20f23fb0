import { z } from 'zod';
import { listQuery, requiredText, sortParams, exportParam } from './common.ts';
import { refId } from './fields.ts';
import { namedRef } from './responses.ts';

export const branchSchema = z.object({
  company_id: refId('Company'),
  name: requiredText('Name'),
  location_id: refId('Location'),
});
export type BranchInput = z.input<typeof branchSchema>;

export const branchRow = z
  .object({
    id: z.number(),
    company_id: z.number(),
    name: z.string(),
    location_id: z.number(),
    company: namedRef,
    location: namedRef,
  })
  .meta({ id: 'Branch' });
export type Branch = z.infer<typeof branchRow>;

/** The Branches columns the list sorts by. */
export const BRANCH_SORTS = ['company', 'name', 'location'] as const;
export const branchesQuery = listQuery.extend({ ...exportParam, ...sortParams(BRANCH_SORTS) });
export type BranchesQuery = z.infer<typeof branchesQuery>;
