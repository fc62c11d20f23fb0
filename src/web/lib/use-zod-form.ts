import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { ApiError } from './api.ts';

/** A Mantine form validated by the same Zod schema the server route uses; checks on input and on blur. */
export function useZodForm<Values extends Record<string, unknown>>(schema: z.ZodType, initialValues: Values) {
  return useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnBlur: true,
  });
}

/** Puts the server's per-field errors under the inputs; true when there were any. */
export function applyServerErrors<Values>(form: UseFormReturnType<Values>, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const entries = Object.entries(error.errors);
  if (entries.length === 0) return false;
  form.setErrors(Object.fromEntries(entries.map(([field, messages]) => [field, messages[0]])));
  return true;
}
