import { describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages.ts';
import { cameraErrorMessage, checkScannedValue, isNotFoundDecodeError } from './scan-rules.ts';

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
