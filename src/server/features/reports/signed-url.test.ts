import { describe, expect, it } from 'vitest';
import { packIds, previewUrl, reportUrlKey, savedReportUrl, unpackIds, verifyPreview, verifySavedReport } from './signed-url.ts';

const key = reportUrlKey('instance-secret');
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('signed report addresses', () => {
  it('when ids are packed, then they come back the same, and malformed packs are refused', () => {
    const ids = [1, 2, 40, 41, 1000, 2_147_483_647];
    expect(unpackIds(packIds(ids))).toEqual(ids);
    expect(packIds(Array.from({ length: 500 }, (_, i) => 10_000 + i * 3)).length).toBeLessThan(1600);
    for (const bad of ['', '0', '1..2', 'A', '1.-2', 'zzzzzzz.zzzzzzz', '1,2']) expect(unpackIds(bad), bad).toBeNull();
  });

  it('when a saved report address is checked, then only the untouched, unexpired one for that report passes', () => {
    const now = Date.parse('2026-11-22T06:00:00Z');
    const q = queryOf(savedReportUrl(key, 7, 3, now));
    expect(verifySavedReport(key, 7, q, now)).toEqual({ ok: true, userId: 3 });
    expect(verifySavedReport(key, 8, q, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySavedReport(key, 7, { ...q, user: '4' }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySavedReport(key, 7, { ...q, expires: String(Number(q.expires) + 600) }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySavedReport(reportUrlKey('other'), 7, q, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifySavedReport(key, 7, q, now + 10 * 60 * 1000)).toEqual({ ok: false, reason: 'expired' });
    expect(verifySavedReport(key, 7, { user: q.user }, now)).toEqual({ ok: false, reason: 'missing' });
  });

  it('when a preview address is checked, then its invoices are bound by the signature', () => {
    const now = Date.now();
    const q = queryOf(previewUrl(key, [5, 9], 2, now));
    expect(verifyPreview(key, q.ids, q, now)).toEqual({ ok: true, userId: 2 });
    expect(verifyPreview(key, packIds([5, 10]), q, now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
