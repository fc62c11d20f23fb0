const DATE: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };

const parts = (iso: string, options: Intl.DateTimeFormatOptions, timeZone?: string) =>
  new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(new Date(iso));

/** The browser's own time zone, where a list shows times as the device's clock does. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "Nov 23, 2026" in the given zone (the server's APP_TIMEZONE for invoices), "-" when empty. */
export const formatDate = (iso: string | null | undefined, timeZone?: string) => (iso ? parts(iso, DATE, timeZone) : '-');

/** "Nov 23, 2026 9:05 AM" in the given zone, "-" when empty. */
export const formatDateTime = (iso: string | null | undefined, timeZone?: string) =>
  iso ? `${parts(iso, DATE, timeZone)} ${parts(iso, TIME, timeZone)}` : '-';
