import { z } from 'zod';
import { requiredText } from './common.ts';

export const locationSchema = z.object({ name: requiredText('Name') });
export type LocationInput = z.input<typeof locationSchema>;

export const locationRow = z.object({ id: z.number(), name: z.string() });
export type Location = z.infer<typeof locationRow>;
