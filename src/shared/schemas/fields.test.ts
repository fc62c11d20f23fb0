import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAX_ID,
  MAX_LOOKUP_ID,
  dateRange,
  id,
  idList,
  isoDate,
  isoDateTime,
  optionalDate,
  optionalId,
  optionalLookupId,
  refId,
  refLookupId,
  wholeNumber,
} from './fields.ts';

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

  it('when a date lies outside 1900-01-01..9999-12-31 (PostgreSQL has no year 0), then isoDate and isoDateTime refuse it; the ends pass', () => {
    for (const day of ['0000-03-28', '0001-01-01', '1899-12-31'])
      expect(firstMessage(isoDate('Start Date'), day), day).toBe('Start Date must be between 1900-01-01 and 9999-12-31');
    expect(firstMessage(isoDate('Start Date'), '10000-01-01')).toBe('Start Date must be a date (YYYY-MM-DD)');
    expect(isoDate('Start Date').parse('1900-01-01')).toBe('1900-01-01');
    expect(isoDate('Start Date').parse('9999-12-31')).toBe('9999-12-31');
    const time = isoDateTime('Bad time');
    expect(firstMessage(time, '0000-01-01T00:00:00Z')).toBe('Bad time');
    expect(firstMessage(time, '2026-02-30T00:00:00Z')).toBe('Bad time');
    expect(time.safeParse('yesterday').error?.issues.map((issue) => issue.message)).toEqual(['Bad time']);
    expect(time.parse('9999-12-31T23:59:59-14:00')).toBe('9999-12-31T23:59:59-14:00');
  });

  it('when a lookup id passes the smallint or an id the integer, then it is refused; the largest each holds passes', () => {
    expect(optionalLookupId.parse(String(MAX_LOOKUP_ID))).toBe(32_767);
    expect(optionalLookupId.safeParse('32768').success).toBe(false);
    expect(firstMessage(refLookupId('Company Type'), 32_768)).toBe('Company Type is required');
    expect(optionalId.safeParse(String(MAX_ID + 1)).success).toBe(false);
    const ids = idList('ids must list pad ids', 3);
    expect(ids.parse('3,1,3')).toEqual([3, 1]);
    for (const bad of ['2147483648', '0', '1,2,3,4', '1,,2', '-1']) expect(firstMessage(ids, bad), bad).toBe('ids must list pad ids');
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
