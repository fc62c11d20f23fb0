import { invalidFormat, minLengthMessage, required } from './messages.ts';

export interface TextRule {
  label: string;
  required?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
  /** When set, a value of only whitespace fails the pattern. */
  rejectBlank?: boolean;
  minLength?: number;
}

/** docs/spec.md §5 "Shared text input": the first failing rule wins, in the order required, pattern, minLength. */
export function validateText(value: string | null | undefined, rule: TextRule): string | null {
  const text = value ?? '';
  if (rule.required && text.trim() === '') return required(rule.label);
  if (rule.pattern && text !== '') {
    const blank = rule.rejectBlank && text.trim() === '';
    if (blank || !rule.pattern.test(text)) return rule.patternMessage ?? invalidFormat(rule.label);
  }
  if (rule.minLength != null && text !== '' && text.length < rule.minLength) return minLengthMessage(rule.label, rule.minLength);
  return null;
}

export type ExternalError = string | string[] | Record<string, string[] | string | undefined> | null | undefined;

const WRAPPING = /^[\s[\]"']+|[\s[\]"']+$/g;

/** docs/spec.md §5: an error from outside may be a string, a list, or an object keyed by field id; server-style wrapping is stripped. */
export function externalErrorFor(error: ExternalError, fieldId: string): string | null {
  if (error == null) return null;
  let raw: unknown;
  if (typeof error === 'string') raw = error;
  else if (Array.isArray(error)) raw = error[0];
  else {
    const entry = error[fieldId];
    raw = Array.isArray(entry) ? entry[0] : entry;
  }
  if (typeof raw !== 'string') return null;
  const cleaned = raw.replace(WRAPPING, '');
  return cleaned === '' ? null : cleaned;
}

/** docs/spec.md §5: a form is submitted only if every field that has reported validity is valid. */
export function allReportedValid(validity: Record<string, boolean>): boolean {
  return Object.values(validity).every(Boolean);
}
