import { LABEL_MSG } from '../../../shared/custody-rules.ts';
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

/** What a pad picker does with a scanned pad: what the scanner says, and whether the pad is to be picked now. */
export interface PadChoice {
  ok: boolean;
  message: string;
  pick: boolean;
}

/**
 * docs/design.md §9 scan to select, the same in every pad picker: a pad the picker refuses (`refusal`, its rule's
 * reason) says why; a pad already picked says so and stays picked; a picker holding `limit` pads takes no more;
 * any other pad is picked.
 */
export function choosePad(
  pad: { id: number; number: number },
  refusal: string | null,
  picked: readonly number[],
  limit = Number.POSITIVE_INFINITY,
): PadChoice {
  if (refusal) return { ok: false, message: refusal, pick: false };
  if (picked.includes(pad.id)) return { ok: true, message: LABEL_MSG.alreadySelected(pad.number), pick: false };
  if (picked.length >= limit) return { ok: false, message: LABEL_MSG.full, pick: false };
  return { ok: true, message: LABEL_MSG.selected(pad.number), pick: true };
}
