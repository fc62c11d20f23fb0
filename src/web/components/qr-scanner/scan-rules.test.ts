import { describe, expect, it } from 'vitest';
import { LABEL_MSG, movablePadRefusal, whyNotIssuable } from '../../../shared/custody-rules.ts';
import { ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { cameraErrorMessage, checkScannedValue, choosePad, isNotFoundDecodeError } from './scan-rules.ts';

describe('scanned value rules', () => {
  it('when the scanned text is empty or not a number, then the spec messages come back', () => {
    expect(checkScannedValue('')).toBe(MSG.emptyQr);
    expect(checkScannedValue('   ')).toBe(MSG.emptyQr);
    expect(checkScannedValue('12a4')).toBe(MSG.qrNotNumber);
    expect(checkScannedValue('-12')).toBe(MSG.qrNotNumber);
    expect(checkScannedValue(' 1234567 ')).toBeNull();
  });

  it('when the camera fails, then the message says whether it was refused, missing or something else', () => {
    expect(cameraErrorMessage(new DOMException('Permission denied', 'NotAllowedError'))).toBe(MSG.cameraDenied);
    expect(cameraErrorMessage('NotAllowedError: Permission dismissed')).toBe(MSG.cameraDenied);
    expect(cameraErrorMessage(new DOMException('Requested device not found', 'NotFoundError'))).toBe(MSG.cameraMissing);
    expect(cameraErrorMessage(new DOMException('Could not start video source', 'NotReadableError'))).toBe(MSG.cameraFailed);
  });

  it('when a frame holds no code, then it is not worth an alert, but other decoder errors are', () => {
    expect(
      isNotFoundDecodeError('QR code parse error, error = NotFoundException: No MultiFormat Readers were able to detect the code.'),
    ).toBe(true);
    expect(isNotFoundDecodeError('No barcode or QR code detected.')).toBe(true);
    expect(isNotFoundDecodeError('Checksum error')).toBe(false);
  });
});

describe('a scanned pad in a pad picker', () => {
  const pad = { id: 9, number: 17 };

  it('when the picker’s rule refuses the pad, then the reason is shown and nothing is picked', () => {
    expect(choosePad(pad, LABEL_MSG.notYours(17), [])).toEqual({ ok: false, message: 'Pad 17 is not yours to choose here', pick: false });
  });

  it('when the pad is already picked, then the scanner says so and it stays picked once', () => {
    expect(choosePad(pad, null, [4, 9])).toEqual({ ok: true, message: 'Pad 17 is already selected', pick: false });
    expect(choosePad(pad, null, [4, 9], 2)).toEqual({ ok: true, message: 'Pad 17 is already selected', pick: false });
  });

  it('when the picker already holds every pad asked for, then another pad is refused', () => {
    expect(choosePad(pad, null, [4, 5], 2)).toEqual({ ok: false, message: LABEL_MSG.full, pick: false });
  });

  it('when the pad may be chosen and there is room, then it is picked', () => {
    expect(choosePad(pad, null, [4], 2)).toEqual({ ok: true, message: 'Selected pad 17', pick: true });
    expect(choosePad(pad, null, [])).toEqual({ ok: true, message: 'Selected pad 17', pick: true });
  });

  it('when a refused pad is also picked already or the picker is full, then the refusal is what is said', () => {
    expect(choosePad(pad, LABEL_MSG.lost(17), [9], 1)).toMatchObject({ ok: false, message: LABEL_MSG.lost(17) });
  });

  it('when a courier scans someone else’s pad for a Return, then it is refused because it is not theirs', () => {
    const theirs = { number: 17, holder_user_id: 31, locked_by_invoice_id: null, pad_status_id: PAD_STATUS.UNUSED };
    expect(choosePad(pad, movablePadRefusal(theirs, 12), [])).toMatchObject({ ok: false, message: LABEL_MSG.notYours(17) });
    expect(choosePad(pad, movablePadRefusal({ ...theirs, holder_user_id: 12 }, 12), [])).toMatchObject({ pick: true });
  });

  it('when the custodian scans a pad of another route for an issue, then it is refused with the route, and the count is kept', () => {
    const onRoute = {
      id: 9,
      number: 17,
      route_id: 1,
      route: { name: 'Batangas - Calapan' },
      pad_status_id: PAD_STATUS.UNUSED,
      issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
      locked_by_invoice_id: null,
      number_counts: { not_used: 50, used: 0, cancelled: 0, lost: 0 },
    };
    expect(choosePad(onRoute, whyNotIssuable(onRoute, 2), [], 3)).toMatchObject({
      ok: false,
      message: LABEL_MSG.wrongRoute(17, 'Batangas - Calapan'),
    });
    expect(choosePad(onRoute, whyNotIssuable(onRoute, 1), [4, 5], 3)).toMatchObject({ pick: true });
    expect(choosePad(onRoute, whyNotIssuable(onRoute, 1), [4, 5, 6], 3)).toMatchObject({ ok: false, message: LABEL_MSG.full });
  });
});
