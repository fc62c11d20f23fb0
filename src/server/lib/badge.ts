import { createHmac, timingSafeEqual } from 'node:crypto';
import { BADGE_CHECK_DIGITS, badgeUserId } from '../../shared/badge-code.ts';

function checkDigits(secret: string, userId: number, version: number): string {
  const mac = createHmac('sha256', secret).update(`${userId}:${version}`).digest();
  const n = mac.readUIntBE(0, 6) % 10 ** BADGE_CHECK_DIGITS;
  return String(n).padStart(BADGE_CHECK_DIGITS, '0');
}

/** The number printed in a user's QR badge: the user id followed by a keyed check, so a guessed id is refused. */
export function encodeBadge(secret: string, userId: number, version: number): string {
  return `${userId}${checkDigits(secret, userId, version)}`;
}

/** Splits a scanned number into the user id it claims; null when it cannot be a badge at all. */
export function claimedUserId(code: string): number | null {
  return badgeUserId(code);
}

/** True when the scanned number is the current badge of that user. */
export function verifyBadge(secret: string, code: string, userId: number, version: number): boolean {
  const expected = Buffer.from(encodeBadge(secret, userId, version));
  const given = Buffer.from(code.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
