import { z } from 'zod';
import { MSG, required } from '../messages.ts';

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PROFILE_EMAIL_PATTERN = /^[\w.-]+@([\w-]+\.)+[\w-]{2,4}$/;
export const MOBILE_PATTERN = /^\d{11}$/;
export const PHONE_PATTERN = /^(\+?\d{1,3}[-.\s]?)?\d{3}[-.\s]?\d{3}[-.\s]?\d{4}$/;
export const LETTERS_AND_SPACES = /^[A-Za-z\s]+$/;
export const STRONG_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;
export const DIGITS = /^\d+$/;

export const MAX_TEXT = 255;

const tooLong = (label: string, max: number) => `${label} may not be longer than ${max} characters`;

/** A required, trimmed string whose messages name the field as the spec does. */
export const requiredText = (label: string, max = MAX_TEXT) =>
  z.string({ error: required(label) }).trim().min(1, required(label)).max(max, tooLong(label, max));

/** An optional string: empty input becomes null. */
export const optionalText = (label: string, max = MAX_TEXT) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((v) => (v ? v : null));

/** A required id picked from a select: accepts numbers and numeric strings. */
export const requiredId = (label: string) =>
  z.coerce.number({ error: required(label) }).int(required(label)).positive(required(label));

export const emailField = (label = 'Email', message: string = MSG.invalidEmail, pattern = EMAIL_PATTERN) =>
  requiredText(label).regex(pattern, message).transform((v) => v.toLowerCase());

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export interface Paginated<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

export interface NamedRef {
  id: number;
  name: string;
}
