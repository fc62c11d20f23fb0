import { describe, expect, it } from 'vitest';
import {
  dateInZone,
  abbreviateSeries,
  calendarDayText,
  countText,
  dayText,
  dayTimeText,
  shownDayTime,
  shownTime,
  zoneName,
  expectedReturnText,
  monthText,
  fullName,
  greetingName,
  pagerWindow,
  routeLabel,
  numberRange,
  numberRanges,
  numbersText,
  seriesRange,
} from './format.ts';

describe('formatters', () => {
  it('when instants around a zone\u2019s midnight are asked in turn, in two zones, then each gets its own date', () => {
    const lastMs = new Date('2026-11-29T15:59:59.999Z');
    const sameSecond = new Date('2026-11-29T15:59:59.000Z');
    const midnight = new Date('2026-11-29T16:00:00.000Z');
    expect(dateInZone(sameSecond, 'Asia/Manila')).toBe('2026-11-29');
    expect(dateInZone(lastMs, 'Asia/Manila')).toBe('2026-11-29');
    expect(dateInZone(midnight, 'Asia/Manila')).toBe('2026-11-30');
    expect(dateInZone(midnight, 'UTC')).toBe('2026-11-29');
    expect(dateInZone(lastMs, 'Asia/Manila')).toBe('2026-11-29');
    expect(dateInZone(new Date('2026-11-30T00:00:00Z'), 'UTC')).toBe('2026-11-30');
  });

  it('when a series number is shown in the grid, then it is abbreviated as docs/spec.md §9 says', () => {
    expect(abbreviateSeries(999)).toBe('999');
    expect(abbreviateSeries(1000)).toBe('1.0K-1000');
    expect(abbreviateSeries(25000)).toBe('25.0K-5000');
    expect(abbreviateSeries(1000001)).toBe('1.0M-0001');
    expect(abbreviateSeries(2500000000123)).toBe('2.5T-0123');
    expect(abbreviateSeries(3_400_000_000)).toBe('3.4B-0000');
  });

  it('when a series is shown where staff compare it with paper, then both ends are written in full', () => {
    expect(seriesRange(100251, 100300)).toBe('100251-100300');
    expect(seriesRange(2500000000001, 2500000000050)).toBe('2500000000001-2500000000050');
  });

  it('when numbers used, lost or left are shown, then a run is written from-to and a single number alone, runs joined as the document joins them', () => {
    expect(numberRange(100251, 100260)).toBe('100251-100260');
    expect(numberRange(100251, 100251)).toBe('100251');
    expect(numberRange(7, 9, '\u2013')).toBe('7\u20139');
    expect(
      numberRanges(
        [
          [1, 5],
          [8, 8],
          [10, 12],
        ],
        '; ',
      ),
    ).toBe('1-5; 8; 10-12');
    expect(numberRanges([], ', ')).toBe('');
    expect(numbersText(5, 5)).toBe('Number 5');
    expect(numbersText(5, 9)).toBe('Numbers 5\u20139');
  });

  it('when a printed document shows an instant, then it is the day and time in the given zone, "-" when there is none', () => {
    const lateUtc = new Date('2026-11-05T17:30:00Z');
    expect(dayText(lateUtc, 'Asia/Manila')).toBe('06 Nov 2026');
    expect(dayText(lateUtc, 'UTC')).toBe('05 Nov 2026');
    expect(dayText(null, 'Asia/Manila')).toBe('-');
    expect(dayTimeText(lateUtc, 'Asia/Manila')).toBe('06 Nov 2026 01:30');
    expect(dayText('2026-09-22T03:00:00Z', 'Asia/Manila')).toBe('22 Sep 2026');
    expect(dayTimeText('2026-09-22T03:00:00Z', 'Asia/Manila')).toBe('22 Sep 2026 11:00');
  });

  it('when a screen shows a time on a device in another zone, then it is the APP_TIMEZONE time with the zone named', () => {
    const at = '2026-11-05T17:30:00.000Z';
    expect(shownDayTime(at, 'Asia/Manila', 'Asia/Manila')).toBe('06 Nov 2026 01:30');
    expect(shownDayTime(at, 'Asia/Manila', 'America/New_York')).toBe('06 Nov 2026 01:30 (Manila time)');
    expect(shownDayTime(at, 'UTC', 'Etc/UTC')).toBe('05 Nov 2026 17:30');
    expect(shownDayTime(null, 'Asia/Manila', 'Europe/London')).toBe('-');
    expect(shownTime(at, 'Asia/Manila', 'Asia/Manila')).toBe('01:30');
    expect(shownTime(at, 'Asia/Manila', 'America/Los_Angeles')).toBe('01:30 (Manila time)');
    expect(zoneName('America/Los_Angeles')).toBe('Los Angeles time');
    expect(zoneName('UTC')).toBe('UTC');
  });

  it('when a printed document shows a calendar date, a month or a count, then no zone shifts the date and counts get separators', () => {
    expect(calendarDayText('2026-11-05')).toBe('05 Nov 2026');
    expect(calendarDayText('2026-11-05T00:00:00.000Z')).toBe('05 Nov 2026');
    expect(calendarDayText(null)).toBe('-');
    expect(monthText('2026-10')).toBe('October 2026');
    expect(countText(1250)).toBe('1,250');
  });

  it('when the expected return is empty, past, today or ahead, then "-", "Overdue", "Due today" or "N days"', () => {
    const now = new Date('2026-11-22T02:00:00Z');
    expect(expectedReturnText(null, now, 'Asia/Manila')).toBe('-');
    expect(expectedReturnText('2026-11-21', now, 'Asia/Manila')).toBe('Overdue');
    expect(expectedReturnText('2026-11-22', now, 'Asia/Manila')).toBe('Due today');
    expect(expectedReturnText('2026-11-23', now, 'Asia/Manila')).toBe('1 day');
    expect(expectedReturnText('2026-11-29', now, 'Asia/Manila')).toBe('7 days');
  });

  it('when it is already tomorrow in Manila but not in UTC, then the days count from the Manila date', () => {
    const lateUtc = new Date('2026-11-22T17:00:00Z');
    expect(expectedReturnText('2026-11-23', lateUtc, 'Asia/Manila')).toBe('Due today');
    expect(expectedReturnText('2026-11-23', lateUtc, 'UTC')).toBe('1 day');
  });

  it('when the pager has many pages, then at most five numbers around the current one', () => {
    expect(pagerWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pagerWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerWindow(6, 10)).toEqual([4, 5, 6, 7, 8]);
    expect(pagerWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pagerWindow(1, 0)).toEqual([]);
  });

  it('when names are shown, then missing parts are skipped and the greeting falls back to "User"', () => {
    expect(fullName({ first_name: 'Ana', middle_name: null, last_name: 'Reyes' })).toBe('Ana Reyes');
    expect(greetingName({ first_name: '' })).toBe('User');
    expect(greetingName(null)).toBe('User');
    expect(greetingName({ first_name: 'Ana' })).toBe('Ana');
  });

  it('when a route is shown, then as company - route - TIN', () => {
    expect(routeLabel({ name: 'Batangas-Calapan', tin: '123-456', company: { name: 'Ocean Fast Ferries' } })).toBe(
      'Ocean Fast Ferries - Batangas-Calapan - 123-456',
    );
  });
});
