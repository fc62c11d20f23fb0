/** Texts of the Reports screens that the spec words. */
export const REPORT_TEXT = {
  noReports: 'No reports available',
  noCompletedInvoices: 'No completed invoices',
  saving: 'Generating report...',
  previewing: 'Loading...',
} as const;
