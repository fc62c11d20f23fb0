import { required } from '../messages.ts';
import { MAX_TEXT, text } from './common.ts';

/** A required, trimmed string that stops at its first failing rule (docs/spec.md §5: only the first failing rule applies). */
export const firstRuleText = (label: string, max = MAX_TEXT) =>
  text(label, required(label))
    .trim()
    .min(1, { error: required(label), abort: true })
    .max(max, { error: `${label} may not be longer than ${max} characters`, abort: true });
