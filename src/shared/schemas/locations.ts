import { z } from 'zod';
import { listQuery, requiredText, sortParams, exportParam } from './common.ts';

export const locationSchema = z.object({ name: requiredText('Name') });
export type LocationInput = z.input<typeof locationSchema>;

export const locationRow = z.object({ id: z.number(), name: z.string() }).meta({ id: 'Location' });
export type Location = z.infer<typeof locationRow>;

/** The Locations columns the list sorts by. */
export const LOCATION_SORTS = ['name'] as const;
export const locationsQuery = listQuery.extend({ ...exportParam, ...sortParams(LOCATION_SORTS) });
export type LocationsQuery = z.infer<typeof locationsQuery>;
