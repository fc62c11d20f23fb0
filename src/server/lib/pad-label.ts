import { createHmac, timingSafeEqual } from 'node:crypto';
import { PAD_LABEL_PATTERN } from '../../shared/custody-rules.ts';
import { urlKey } from './signed-url.ts';

const PREFIX = 'PT1P';
const MAC_CHARS = 12;

const mac = (secret: string, padId: number) =>
  createHmac('sha256', urlKey(secret, 'pad-label')).update(`pad:${padId}`).digest('base64url').slice(0, MAC_CHARS).toUpperCase();

/**
 * The text of a pad label's QR code: the pad id with a keyed check (docs/design.md §9 labels), so a typo or a guessed
 * id never selects another pad. Upper-case letters and digits only, which every handheld scanner types as read.
 */
export function encodePadLabel(secret: string, padId: number): string {
  return `${PREFIX}${padId}-${mac(secret, padId).replace(/[^A-Z0-9]/g, '0')}`;
}

/** The pad id a scanned label stands for; null for anything not made here (forged, altered, another kind of code). */
export function padIdFromLabel(secret: string, code: string): number | null {
  const match = PAD_LABEL_PATTERN.exec(code.trim().toUpperCase());
  if (!match) return null;
  const padId = Number(match[1]);
  if (!Number.isSafeInteger(padId) || padId <= 0 || padId > 2_147_483_647) return null;
  const expected = Buffer.from(encodePadLabel(secret, padId));
  const given = Buffer.from(`${PREFIX}${padId}-${match[2]}`);
  return expected.length === given.length && timingSafeEqual(expected, given) ? padId : null;
}
