import dayjs from 'dayjs';
import type { CompletedInvoiceRow } from '../../../shared/schemas/reports.ts';

export const REPORT_TEXT = {
  noReports: 'No reports available',
  noCompletedInvoices: 'No completed invoices',
  saving: 'Generating report...',
  previewing: 'Loading...',
} as const;

export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY') : '-');
export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY h:mm A') : '-');

/** "By" is the branch the pads left from; "To" the branch that received them. */
export const byBranch = (row: Pick<CompletedInvoiceRow, 'from_branch' | 'user'>) => row.from_branch?.name ?? row.user.branch?.name ?? '-';
export const toBranch = (row: Pick<CompletedInvoiceRow, 'branch'>) => row.branch?.name ?? '-';

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
