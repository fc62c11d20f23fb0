import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api.ts';
import { readBadge, type ScannedPerson } from './assignee-scanner.tsx';

const rey: ScannedPerson = { id: 31, full_name: 'Rey Cruz' };

describe('a courier’s badge scanned to assign or hand over', () => {
  it('when the badge number belongs to someone, then they are picked and named', async () => {
    const resolve = vi.fn(async () => rey);
    const onResolved = vi.fn();

    expect(await readBadge(' 4417 ', resolve, onResolved)).toEqual({ ok: true, message: 'Scanned: Rey Cruz' });
    expect(resolve).toHaveBeenCalledWith('4417');
    expect(onResolved).toHaveBeenCalledWith(rey);
  });

  it('when the code is empty or not a number (a pad label, an address), then it is refused without a lookup', async () => {
    const resolve = vi.fn(async () => rey);
    expect(await readBadge('  ', resolve, vi.fn())).toEqual({ ok: false, message: MSG.emptyQr });
    expect(await readBadge('PT1P9-7K2M4Q8R1X3Z', resolve, vi.fn())).toEqual({ ok: false, message: MSG.qrNotNumber });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('when the server refuses the badge, then its words are shown; when the lookup fails otherwise, then the badge is called invalid', async () => {
    const onResolved = vi.fn();
    const refused = async () => Promise.reject(new ApiError(404, 'No active user has this badge.'));
    expect(await readBadge('4417', refused, onResolved)).toEqual({ ok: false, message: 'No active user has this badge.' });

    const failed = async () => Promise.reject(new ApiError(500, 'Server Error'));
    expect(await readBadge('4417', failed, onResolved)).toEqual({ ok: false, message: MSG.qrInvalidBadge });

    const unreachable = async () => Promise.reject(new ApiError(0, MSG.noConnectionRead, {}, false));
    expect(await readBadge('4417', unreachable, onResolved)).toEqual({ ok: false, message: MSG.qrInvalidBadge });
    expect(onResolved).not.toHaveBeenCalled();
  });
});
