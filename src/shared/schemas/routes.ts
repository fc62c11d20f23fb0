import { z } from 'zod';
import { requiredText, type NamedRef } from './common.ts';
import { refId } from './admin-common.ts';

export const routeSchema = z.object({
  company_id: refId('Company'),
  name: requiredText('Name'),
  tin: requiredText('TIN', 64),
});
export type RouteInput = z.input<typeof routeSchema>;

export interface Route {
  id: number;
  company_id: number;
  name: string;
  tin: string;
  company: NamedRef;
}
