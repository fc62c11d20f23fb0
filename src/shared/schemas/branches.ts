import { z } from 'zod';
import { requiredText, type NamedRef } from './common.ts';
import { refId } from './admin-common.ts';

export const branchSchema = z.object({
  company_id: refId('Company'),
  name: requiredText('Name'),
  location_id: refId('Location'),
});
export type BranchInput = z.input<typeof branchSchema>;

export interface Branch {
  id: number;
  company_id: number;
  name: string;
  location_id: number;
  company: NamedRef;
  location: NamedRef;
}
