/** How many digits of a badge number are its keyed check; the digits before them are the user id. */
export const BADGE_CHECK_DIGITS = 6;

/**
 * The user id a scanned badge number claims, read without the key: the server still checks the whole number, but a
 * phone without network picks the person by it (docs/design.md §2 offline). Null when it cannot be a badge at all.
 */
export function badgeUserId(code: string): number | null {
  const text = code.trim();
  if (!/^\d+$/.test(text) || text.length <= BADGE_CHECK_DIGITS || text.length > BADGE_CHECK_DIGITS + 9) return null;
  const id = Number(text.slice(0, -BADGE_CHECK_DIGITS));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
