import { z } from 'zod';
import { required } from '../messages.ts';
import { MAX_TEXT } from './common.ts';

export const MAX_ID = 2_147_483_647;

/** A reference picked in a select: numbers or numeric strings; empty, zero or junk say "{label} is required". */
export const refId = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: required(label) }).int(required(label)).positive(required(label)).max(MAX_ID, required(label)),
  );

/** An optional id filter of a list query; an empty value means no filter. */
export const filterId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number().int().positive().max(MAX_ID).optional(),
);

/** A required, trimmed string that stops at its first failing rule (spec §5: only the first failing rule applies). */
export const firstRuleText = (label: string, max = MAX_TEXT) =>
  z
    .string({ error: required(label) })
    .trim()
    .min(1, { error: required(label), abort: true })
    .max(max, { error: `${label} may not be longer than ${max} characters`, abort: true });
