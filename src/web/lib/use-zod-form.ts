import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import type { FocusEvent } from 'react';
import type { z } from 'zod';
import { ApiError } from './api.ts';

/**
 * A Mantine form validated by the same Zod schema the server route uses; a field is checked when it loses focus, except
 * to a button: an error appearing between press and release would move that button (Add, Cancel) from under the pointer
 * and swallow the click, and the button's own action decides (Add checks every field).
 */
export function useZodForm<Values extends Record<string, unknown>>(schema: z.ZodType, initialValues: Values) {
  return useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: schemaResolver(schema, { sync: true }),
    enhanceGetInputProps: ({ field, form, options }) =>
      options.withFocus
        ? {
            onBlur: (event?: FocusEvent<HTMLElement>) => {
              if (!(event?.relatedTarget instanceof HTMLButtonElement)) form.validateField(field);
            },
          }
        : {},
  });
}

/**
 * Puts the server's 422 per-field errors under the inputs ("pads.3" lands on "pads", first message
 * wins); true when there were any.
 */
export function applyServerErrors<Values>(form: UseFormReturnType<Values>, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const found: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const root = field.split('.')[0];
    if (messages[0] && !(root in found)) found[root] = messages[0];
  }
  if (Object.keys(found).length === 0) return false;
  form.setErrors(found);
  return true;
}
