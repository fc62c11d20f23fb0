import { MSG } from '../../../shared/messages.ts';

/** docs/spec.md §5: a scanned value must be a non-empty number before it is looked up. */
export function checkScannedValue(text: string): string | null {
  const value = text.trim();
  if (value === '') return MSG.emptyQr;
  if (!/^\d+$/.test(value)) return MSG.qrNotNumber;
  return null;
}

/** docs/spec.md §8 camera messages, by the kind of error the browser or the library reports. */
export function cameraErrorMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  if (/NotAllowed|Permission|denied/i.test(text)) return MSG.cameraDenied;
  if (/NotFound|not found|no camera|Requested device|Overconstrained/i.test(text)) return MSG.cameraMissing;
  return MSG.cameraFailed;
}

/** docs/spec.md §8: a frame where nothing was found is normal while scanning; only other decode errors deserve an alert. */
export const isNotFoundDecodeError = (message: string) =>
  /NotFound|No MultiFormat Readers|No barcode or QR code detected|not found/i.test(message);
