/**
 * Which feature owns each table of src/server/db/schema/ (its Drizzle name): only the owner's files write it or read
 * it, in the query builder or in raw `sql` (eslint.config.js refuses foreign imports; table-ownership.test.ts reads
 * the SQL). Everyone else goes through the owner's face (read-model.ts, lifecycle.ts, documents.ts).
 */
export const TABLE_OWNERS = {
  accounts: ['accessTokens', 'passwordResets'],
  users: ['users', 'userStatuses'],
  roles: ['roles'],
  companies: ['companies', 'companyTypes'],
  routes: ['routes'],
  locations: ['locations'],
  branches: ['branches'],
  pads: ['pads', 'padCustody', 'padStatuses', 'issuanceStatuses', 'padIdBlocks'],
  invoices: ['invoices', 'invoicePads', 'activities', 'invoiceTypes', 'invoiceStatuses', 'pendingHandOvers'],
  idempotency: ['idempotencyKeys'],
  reports: ['reports', 'reportInvoices'],
  ledger: [
    'padEvents',
    'raafCertificates',
    'raafMonthCloses',
    'raafMonthBalances',
    'ledgerVerifiedHeads',
    'ledgerVerifyRuns',
    'ledgerChecks',
  ],
  outcomes: ['outcomeRequests'],
  incidents: ['lossIncidents', 'lossIncidentPads', 'lossIncidentAttachments', 'lossIncidentFound', 'lossIncidentCounters'],
  setup: ['settings'],
  counts: ['countSessions', 'countItems', 'countResolutions', 'countAsks'],
  imports: ['imports'],
  'registered-series': ['registeredSeries', 'registeredSeriesRoles'],
  establishments: ['establishments'],
  outages: ['outages', 'outageEvidence', 'paperUses', 'replacementEinvoices'],
  settings: ['operatorIdentity', 'documentIdentities'],
  deliveries: ['deliveries'],
  notifications: ['notifications', 'notificationSettings', 'alertSettings', 'reorderPoints'],
};

/**
 * The other features' tables a feature may join or count, kept short on purpose: display joins of a list's names, and the
 * "12 pads use this route" counts behind a refused delete. Anything else goes through the owner's face.
 */
export const TABLE_READS = {
  accounts: ['users', 'userStatuses', 'roles', 'branches'],
  branches: ['companies', 'locations', 'invoices', 'padCustody', 'users'],
  companies: ['branches', 'routes'],
  invoices: [
    'branches',
    'companies',
    'locations',
    'pads',
    'padCustody',
    'padStatuses',
    'issuanceStatuses',
    'reportInvoices',
    'routes',
    'users',
  ],
  /**
   * docs/design.md §8: the ledger records and verifies the pads' current view (received events are written from the new pad
   * rows, orphans and unverified pads are found against them); pad history names branches and loss incidents by number.
   */
  ledger: ['pads', 'padCustody', 'branches', 'lossIncidents'],
  locations: ['branches'],
  /**
   * A count lists the branch's pads in route and pad order with the holder's and branch's names, and "counts due" scans
   * holders by the pads they hold: set-based joins over thousands of pads, which a call per pad through a face would not be.
   */
  counts: ['users', 'pads', 'padCustody', 'routes', 'branches'],
  /** A loss incident's confirm queue finds the branch that holds its pads; the notice names each pad's route and company. */
  incidents: ['pads', 'padCustody', 'routes', 'companies'],
  /** An approval queue row shows its pad and route, and the approver rule (permissions.ts) looks at the pad's holder. */
  outcomes: ['pads', 'padCustody', 'routes'],
  pads: ['branches', 'companies', 'invoicePads', 'routes', 'registeredSeries'],
  /** Issue 38: a paper-use exception's row names its establishment, pad and route (with its company). */
  outages: ['branches', 'pads', 'routes', 'companies'],
  imports: ['branches', 'roles', 'routes', 'users'],
  'registered-series': ['branches', 'companies', 'routes'],
  reports: ['invoices', 'roles', 'users'],
  roles: ['users'],
  /** The first-run checklist only asks whether each kind of record exists yet. */
  setup: ['companies', 'locations', 'branches', 'routes', 'users', 'pads'],
  routes: ['companies', 'invoices', 'pads'],
  users: ['accessTokens', 'activities', 'branches', 'invoices', 'pads', 'padCustody', 'reports', 'roles', 'routes'],
};
