import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_ID, dateRange, id, isoDate, optionalDate, optionalId, refId, wholeNumber } from './fields.ts';

const firstMessage = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0].message;
};

describe('field vocabulary', () => {
  it('when a date rolls over the calendar, then isoDate refuses it naming the field; a real date passes', () => {
    expect(firstMessage(isoDate('Start Date'), '2026-02-30')).toBe('Start Date is not a valid date');
    expect(firstMessage(isoDate('Start Date'), '2026-13-01')).toBe('Start Date is not a valid date');
    expect(firstMessage(isoDate('Start Date'), 'yesterday')).toBe('Start Date must be a date (YYYY-MM-DD)');
    expect(firstMessage(isoDate('Start Date', { invalid: 'Start Date: bad' }), '2025-02-29')).toBe('Start Date: bad');
    expect(isoDate('Start Date').parse('2024-02-29')).toBe('2024-02-29');
    expect(optionalDate('End Date').parse('')).toBeUndefined();
  });

  it('when the end of a date range comes before its start, then the message sits on end_date', () => {
    const query = dateRange(z.object({ start_date: optionalDate('Start Date'), end_date: optionalDate('End Date') }), 'End before start');
    const result = query.safeParse({ start_date: '2026-03-05', end_date: '2026-03-01' });
    expect(result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['end_date', 'End before start'],
    ]);
    expect(query.parse({ start_date: '2026-03-01', end_date: '2026-03-01' })).toEqual({ start_date: '2026-03-01', end_date: '2026-03-01' });
  });

  it('when a whole number is empty, not whole or out of bounds, then each case has its message, in the default or a feature wording', () => {
    const pads = wholeNumber('Number of Pads', { min: 1, max: 1000 });
    expect(firstMessage(pads, '')).toBe('Number of Pads is required');
    expect(firstMessage(pads, null)).toBe('Number of Pads is required');
    expect(firstMessage(pads, '2a')).toBe('Invalid Number of Pads format');
    expect(firstMessage(pads, 1.5)).toBe('Invalid Number of Pads format');
    expect(firstMessage(pads, 0)).toBe('Number of Pads must be at least 1');
    expect(firstMessage(pads, '1001')).toBe('Number of Pads may not be greater than 1000');
    expect(pads.parse(' 12 ')).toBe(12);
    const worded = wholeNumber('Series From', { min: 0, max: 10, messages: { notWhole: 'whole!', tooLarge: 'range!' } });
    expect([firstMessage(worded, '-1'), firstMessage(worded, 11)]).toEqual(['whole!', 'range!']);
  });

  it('when an id is junk, zero or past the largest integer, then it is refused; a picked id says "{label} is required"', () => {
    expect(id().parse('42')).toBe(42);
    expect(id().safeParse(MAX_ID + 1).success).toBe(false);
    expect(id().safeParse(0).success).toBe(false);
    expect(firstMessage(refId('Route'), '')).toBe('Route is required');
    expect(firstMessage(refId('Route'), MAX_ID + 1)).toBe('Route is required');
    expect(optionalId.parse('')).toBeUndefined();
    expect(optionalId.parse('7')).toBe(7);
  });
});
