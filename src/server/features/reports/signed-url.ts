import { MAX_ID } from '../../../shared/schemas/fields.ts';
import { MAX_REPORT_INVOICES } from '../../../shared/schemas/reports.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';

/** A key of its own for report PDF addresses. */
export const reportUrlKey = (instanceSecret: string): Buffer => urlKey(instanceSecret, 'report-pdf-url');

/** Sorted ids as base-36 gaps ("3.1.a"), so a preview of hundreds of invoices still fits in an address. */
export function packIds(ids: number[]): string {
  let previous = 0;
  return ids
    .map((id) => {
      const gap = id - previous;
      previous = id;
      return gap.toString(36);
    })
    .join('.');
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

/** The address of a saved report's PDF, valid for one user for a few minutes. */
export function savedReportUrl(key: Buffer, reportId: number, userId: number, now = Date.now()): string {
  return `/api/reports/${reportId}/pdf?${signedQueryFor(key, `report:${reportId}`, userId, now)}`;
}

/** The address of a preview PDF; the invoices travel in the signed address, so any instance can render it. */
export function previewUrl(key: Buffer, invoiceIds: number[], userId: number, now = Date.now()): string {
  const ids = packIds(invoiceIds);
  return `/api/reports/preview?${new URLSearchParams({ ids })}&${signedQueryFor(key, `preview:${ids}`, userId, now)}`;
}

export const verifySavedReport = (key: Buffer, reportId: number, q: SignedQuery, now = Date.now()) =>
  verifySigned(key, `report:${reportId}`, q, now);

export const verifyPreview = (key: Buffer, packedIds: string, q: SignedQuery, now = Date.now()) =>
  verifySigned(key, `preview:${packedIds}`, q, now);
