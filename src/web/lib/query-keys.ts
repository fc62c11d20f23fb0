import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The key of one API endpoint: `all` to invalidate every cached call of it, `of(...)` for one call. */
function endpoint<Args extends unknown[] = []>(path: string) {
  return {
    all: [path] as const,
    of: (...args: Args) => [path, ...args] as const,
  };
}

/**
 * One cache key per API endpoint the screens read, named by its path. Every query and every mutation's
 * invalidation takes its key from here, so one endpoint is cached under one key in every screen.
 */
export const queryKeys = {
  invoices: endpoint<[params: object]>('get-invoices'),
  invoice: endpoint<[id: number]>('get-invoice'),
  invoicePads: endpoint<[id: number, params: object]>('pads-belong-to-invoice'),
  availablePads: endpoint<[routeId: number, params: object]>('available-pads'),
  inTransitInvoices: endpoint<[params: object]>('get-in-transit-invoices'),
  completedInvoices: endpoint<[params: object]>('completed-invoices'),
  userPads: endpoint<[params: object]>('get-user-pads'),
  pads: endpoint<[params: object]>('get-pads'),
  pad: endpoint<[id: number]>('get-pad'),
  reports: endpoint<[params: object]>('reports'),
  myActions: endpoint('my-actions'),
  health: endpoint('health'),
  dashboard: endpoint('dashboard'),
  latestLedgerCheck: endpoint('ledger-checks/latest'),
  invoiceTypes: endpoint('invoice-types'),
  invoiceStatuses: endpoint('invoice-statuses'),
  padStatuses: endpoint('pad-statuses'),
  issuanceStatuses: endpoint('issuance-statuses'),
  headOffice: endpoint('head-office-branch'),
  couriers: endpoint<[roles?: string]>('get-users-by-roles'),
  profile: endpoint('user-profile'),
  badge: endpoint('get-user-qrcode'),
  routes: endpoint('get-routes'),
  branches: endpoint('get-branches'),
  roles: endpoint('get-roles'),
  companies: endpoint('get-companies'),
  companyTypes: endpoint('get-company-types'),
  locations: endpoint('get-locations'),
  userStatuses: endpoint('get-user-statuses'),
  users: endpoint<[params: object]>('get-users'),
  rolesPage: endpoint<[params: object]>('get-roles-with-search'),
  companiesPage: endpoint<[params: object]>('get-companies-with-search'),
  routesPage: endpoint<[params: object]>('get-routes-with-search'),
  locationsPage: endpoint<[params: object]>('get-locations-with-search'),
  branchesPage: endpoint<[params: object]>('get-branches-with-search'),
  padHistory: endpoint<[id: number]>('pad-history'),
  findReceipt: endpoint<[number: string]>('find-receipt'),
  raaf: endpoint<[month: string, holder: object]>('raaf'),
  raafSummary: endpoint<[month: string]>('raaf-summary'),
  raafCertificates: endpoint<[params: object]>('raaf-certificates'),
  setupStatus: endpoint('setup-status'),
  operatorIdentity: endpoint('settings/operator-identity'),
  outcomeRequests: endpoint<[params: object]>('outcome-requests'),
  incidents: endpoint<[params: object]>('loss-incidents'),
  incident: endpoint<[id: number]>('loss-incident'),
  pendingHandOvers: endpoint('get-pending-hand-overs'),
  counts: endpoint<[params: object]>('counts'),
  count: endpoint<[id: number]>('count'),
  countVariances: endpoint<[id: number]>('count-variances'),
  lastCount: endpoint<[holder: object]>('count-last'),
  imports: endpoint<[params: object]>('imports'),
  registeredSeries: endpoint<[params: object]>('registered-series'),
  unusedForms: endpoint<[date: string, branchId: string | null]>('unused-forms'),
  /** Issue 38: an establishment's e-invoicing details, outages, paper-use exceptions, replacements and the summary list. */
  establishment: endpoint<[branchId: number]>('branches/e-invoicing'),
  outages: endpoint<[params: object]>('outages'),
  outage: endpoint<[id: number]>('outage'),
  paperUseExceptions: endpoint<[params: object]>('paper-use-exceptions'),
  paperUseException: endpoint<[id: number]>('paper-use-exception'),
  replacements: endpoint<[outageId: number]>('outage-replacements'),
  paperUseSummary: endpoint<[params: object]>('paper-use'),
  seriesRoles: endpoint<[seriesId: number]>('registered-series-roles'),
  notifications: endpoint<[params: object]>('notifications'),
  notificationSettings: endpoint('notification-settings'),
  alertSettings: endpoint('alert-settings'),
  jobs: endpoint('jobs'),
};

/** The lists an invoice state change can alter: the invoice lists, the pads it moves or locks, and the counts of what needs whom. */
export const invoiceListKeys: QueryKey[] = [
  queryKeys.invoices.all,
  queryKeys.myActions.all,
  queryKeys.dashboard.all,
  queryKeys.inTransitInvoices.all,
  queryKeys.completedInvoices.all,
  queryKeys.availablePads.all,
  queryKeys.userPads.all,
  queryKeys.pads.all,
];

/** The details of invoices: one get-invoice key and its pads, shared by every screen. */
export const invoiceDetailKeys: QueryKey[] = [queryKeys.invoice.all, queryKeys.invoicePads.all];

/**
 * What a change to a pad's numbers (usage, cancellation, loss, their undoing, an approval) can alter: the pad wherever it
 * is listed, its history and Find receipt, the outcome requests and incidents, and the counts of what needs whom.
 */
export const padNumberKeys: QueryKey[] = [
  queryKeys.pads.all,
  queryKeys.pad.all,
  queryKeys.userPads.all,
  queryKeys.availablePads.all,
  queryKeys.invoicePads.all,
  queryKeys.padHistory.all,
  queryKeys.findReceipt.all,
  queryKeys.outcomeRequests.all,
  queryKeys.incidents.all,
  queryKeys.incident.all,
  queryKeys.myActions.all,
  queryKeys.dashboard.all,
];

/** Everything any invoice state change can alter. */
export const invoiceChangeKeys: QueryKey[] = [...invoiceListKeys, ...invoiceDetailKeys];

/** Marks the given endpoints stale; the screens showing them fetch again (with `refetch` false, only when next shown). */
export function invalidate(queryClient: QueryClient, keys: QueryKey[], refetch = true): Promise<void> {
  const refetchType = refetch ? 'active' : 'none';
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey, refetchType }))).then(() => undefined);
}
