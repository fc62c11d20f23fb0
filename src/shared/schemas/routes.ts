import { z } from 'zod';
import { listQuery, requiredText, sortParams, exportParam } from './common.ts';
import { refId } from './fields.ts';
import { namedRef } from './responses.ts';

export const routeSchema = z.object({
  company_id: refId('Company'),
  name: requiredText('Name'),
  tin: requiredText('TIN', 64),
});
export type RouteInput = z.input<typeof routeSchema>;

export const routeRow = z
  .object({ id: z.number(), company_id: z.number(), name: z.string(), tin: z.string(), company: namedRef })
  .meta({ id: 'Route' });
export type Route = z.infer<typeof routeRow>;

/** The Routes columns the list sorts by. */
export const ROUTE_SORTS = ['company', 'name', 'tin'] as const;
export const routesQuery = listQuery.extend({ ...exportParam, ...sortParams(ROUTE_SORTS) });
export type RoutesQuery = z.infer<typeof routesQuery>;
