import { describe, expect, it, vi } from 'vitest';
import { badgeUserId } from '../../../shared/badge-code.ts';
import { MSG } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api.ts';
import { readBadge, type ScannedPerson } from './assignee-scanner.tsx';

const rey: ScannedPerson = { id: 31, full_name: 'Rey Cruz' };
const carlo: ScannedPerson = { id: 4417, full_name: 'Carlo Reyes' };
const unreachable = async () => Promise.reject(new ApiError(0, MSG.noConnectionRead, {}, false));

describe('a courier’s badge scanned to assign or hand over', () => {
  it('when the badge number belongs to someone, then they are picked and named', async () => {
    const resolve = vi.fn(async () => rey);
    const onResolved = vi.fn();

    expect(await readBadge(' 31123456 ', resolve, onResolved)).toEqual({ ok: true, message: 'Scanned: Rey Cruz' });
    expect(resolve).toHaveBeenCalledWith('31123456');
    expect(onResolved).toHaveBeenCalledWith({ person: rey, code: '31123456' });
  });

  it('when the code is empty or not a number (a pad label, an address), then it is refused without a lookup', async () => {
    const resolve = vi.fn(async () => rey);
    expect(await readBadge('  ', resolve, vi.fn())).toEqual({ ok: false, message: MSG.emptyQr });
    expect(await readBadge('PT1P9-7K2M4Q8R1X3Z', resolve, vi.fn())).toEqual({ ok: false, message: MSG.qrNotNumber });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('when the server refuses the badge, then its words are shown; when the server fails, then the badge is called invalid', async () => {
    const onResolved = vi.fn();
    const refused = async () => Promise.reject(new ApiError(404, 'No active user has this badge.'));
    expect(await readBadge('4417', refused, onResolved)).toEqual({ ok: false, message: 'No active user has this badge.' });

    const failed = async () => Promise.reject(new ApiError(500, 'Server Error'));
    expect(await readBadge('4417', failed, onResolved)).toEqual({ ok: false, message: MSG.qrInvalidBadge });
    expect(onResolved).not.toHaveBeenCalled();
  });

  it('when the lookup cannot reach the server, then the badge’s user id picks the person from the saved couriers, with the whole code kept for the server', async () => {
    const onResolved = vi.fn();
    const saved = () => [rey, carlo];
    expect(await readBadge('4417902113', unreachable, onResolved, saved)).toEqual({
      ok: true,
      message: MSG.badgeScannedOffline('Carlo Reyes'),
    });
    expect(onResolved).toHaveBeenCalledWith({ person: carlo, code: '4417902113' });
  });

  it('when the lookup cannot reach the server and the badge names someone not saved, then it says the badge cannot be checked now, never invalid', async () => {
    const onResolved = vi.fn();
    expect(await readBadge('9999123456', unreachable, onResolved, () => [rey])).toEqual({ ok: false, message: MSG.badgeUncheckable });
    expect(await readBadge('31123456', unreachable, onResolved)).toEqual({ ok: false, message: MSG.badgeUncheckable });
    expect(await readBadge('4417', unreachable, onResolved, () => [rey])).toEqual({ ok: false, message: MSG.qrInvalidBadge });
    expect(onResolved).not.toHaveBeenCalled();
  });
});

describe('the user id part of a badge number', () => {
  it('when a number has the six check digits after an id, then the id is read; when it is too short or too long, then it is no badge', () => {
    expect(badgeUserId(' 4417902113 ')).toBe(4417);
    expect(badgeUserId('1000000')).toBe(1);
    expect(badgeUserId('123456')).toBeNull();
    expect(badgeUserId('0123456')).toBeNull();
    expect(badgeUserId('1234567890123456')).toBeNull();
    expect(badgeUserId('44a7902113')).toBeNull();
  });
});
