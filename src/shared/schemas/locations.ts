import { z } from 'zod';
import { requiredText } from './common.ts';

export const locationSchema = z.object({ name: requiredText('Name') });
export type LocationInput = z.input<typeof locationSchema>;

export interface Location {
  id: number;
  name: string;
}
