import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_REPORT_INVOICES } from '../../../shared/schemas/reports.ts';

/** How long a PDF address handed to the browser stays valid. */
export const SIGNED_URL_TTL_MS = 10 * 60 * 1000;

const MAX_ID = 2_147_483_647;

/** A key of its own for PDF addresses, derived from the instance secret so every app instance agrees. */
export function reportUrlKey(instanceSecret: string): Buffer {
  return createHmac('sha256', instanceSecret).update('padtrack/report-pdf-url/v1').digest();
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Sorted ids as base-36 gaps ("3.1.a"), so a preview of hundreds of invoices still fits in an address. */
export function packIds(ids: number[]): string {
  let previous = 0;
  return ids.map((id) => {
    const gap = id - previous;
    previous = id;
    return gap.toString(36);
  }).join('.');
}

export function unpackIds(packed: string): number[] | null {
  if (!/^[0-9a-z]{1,7}(\.[0-9a-z]{1,7})*$/.test(packed)) return null;
  const parts = packed.split('.');
  if (parts.length > MAX_REPORT_INVOICES) return null;
  const ids: number[] = [];
  let current = 0;
  for (const part of parts) {
    const gap = Number.parseInt(part, 36);
    if (!Number.isSafeInteger(gap) || gap < 1) return null;
    current += gap;
    if (current > MAX_ID) return null;
    ids.push(current);
  }
  return ids;
}

export interface SignedQuery {
  user?: string;
  expires?: string;
  signature?: string;
}

export type Verified = { ok: true; userId: number } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** The address of a saved report's PDF, valid for one user for a few minutes. */
export function savedReportUrl(key: Buffer, reportId: number, userId: number, now = Date.now()): string {
  const expires = String(Math.floor((now + SIGNED_URL_TTL_MS) / 1000));
  const signature = sign(key, `report:${reportId}:${userId}:${expires}`);
  return `/api/reports/${reportId}/pdf?${query({ user: String(userId), expires, signature })}`;
}

/** The address of a preview PDF; the invoices travel in the signed address, so any instance can render it. */
export function previewUrl(key: Buffer, invoiceIds: number[], userId: number, now = Date.now()): string {
  const ids = packIds(invoiceIds);
  const expires = String(Math.floor((now + SIGNED_URL_TTL_MS) / 1000));
  const signature = sign(key, `preview:${ids}:${userId}:${expires}`);
  return `/api/reports/preview?${query({ ids, user: String(userId), expires, signature })}`;
}

function verify(key: Buffer, subject: string, q: SignedQuery, now: number): Verified {
  if (!q.user || !q.expires || !q.signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,10}$/.test(q.user) || !/^\d{1,12}$/.test(q.expires) || q.signature.length > 64) return { ok: false, reason: 'invalid' };
  if (!sameSignature(sign(key, `${subject}:${q.user}:${q.expires}`), q.signature)) return { ok: false, reason: 'invalid' };
  if (Number(q.expires) * 1000 <= now) return { ok: false, reason: 'expired' };
  const userId = Number(q.user);
  return userId > 0 && userId <= MAX_ID ? { ok: true, userId } : { ok: false, reason: 'invalid' };
}

export const verifySavedReport = (key: Buffer, reportId: number, q: SignedQuery, now = Date.now()) =>
  verify(key, `report:${reportId}`, q, now);

export const verifyPreview = (key: Buffer, packedIds: string, q: SignedQuery, now = Date.now()) =>
  verify(key, `preview:${packedIds}`, q, now);
