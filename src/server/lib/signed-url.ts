import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_ID } from '../../shared/schemas/fields.ts';

/** How long a PDF address handed to the browser stays valid. */
export const SIGNED_URL_TTL_MS = 10 * 60 * 1000;
/** The furthest ahead a signed address may expire: one that claims more was not made here, whatever its signature. */
export const SIGNED_URL_MAX_AHEAD_MS = 15 * 60 * 1000;

export interface SignedQuery {
  user?: string;
  expires?: string;
  signature?: string;
}

export type Verified = { ok: true; userId: number } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

const keys = new Map<string, Buffer>();

/**
 * A key of its own per kind of address, derived from the instance secret so every app instance agrees;
 * worked out once per secret and purpose.
 */
export function urlKey(instanceSecret: string, purpose: string): Buffer {
  const id = `${purpose}\n${instanceSecret}`;
  let key = keys.get(id);
  if (!key) {
    key = createHmac('sha256', instanceSecret).update(`padtrack/${purpose}/v1`).digest();
    keys.set(id, key);
  }
  return key;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** The query string that lets one user open `subject` for a few minutes without a bearer header (an iframe, a new tab). */
export function signedQueryFor(key: Buffer, subject: string, userId: number, now = Date.now()): string {
  const expires = String(Math.floor((now + SIGNED_URL_TTL_MS) / 1000));
  const signature = sign(key, `${subject}:${userId}:${expires}`);
  return new URLSearchParams({ user: String(userId), expires, signature }).toString();
}

export function verifySigned(key: Buffer, subject: string, q: SignedQuery, now = Date.now()): Verified {
  if (!q.user || !q.expires || !q.signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,10}$/.test(q.user) || !/^\d{1,12}$/.test(q.expires) || q.signature.length > 64) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(sign(key, `${subject}:${q.user}:${q.expires}`));
  const given = Buffer.from(q.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  if (Number(q.expires) * 1000 <= now) return { ok: false, reason: 'expired' };
  if (Number(q.expires) * 1000 > now + SIGNED_URL_MAX_AHEAD_MS) return { ok: false, reason: 'invalid' };
  const userId = Number(q.user);
  return userId > 0 && userId <= MAX_ID ? { ok: true, userId } : { ok: false, reason: 'invalid' };
}
