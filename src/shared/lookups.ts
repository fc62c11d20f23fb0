/** Ids of the seeded lookup rows (docs/design.md §5). Names are data; these ids are fixed. */
export const ROLE = {
  ADMIN: 1,
  IT_ADMIN: 2,
  CUSTODIAN: 3,
  BRANCH_CUSTODIAN: 4,
  BRANCH_HEAD: 5,
  SUPERVISOR: 6,
  TICKETING_OFFICER: 7,
  ACCOUNTING: 8,
  AUDITOR: 9,
  DRIVER: 10,
  MESSENGER: 11,
} as const;

export const SYSTEM_ROLE_MAX_ID = 11;

export const USER_STATUS = { ACTIVE: 1, INACTIVE: 2 } as const;

export const COMPANY_TYPE = { SHIPPING_LINE: 1, TRAVEL_AGENCY: 2, PARTNER: 3 } as const;

export const PAD_STATUS = { USED: 1, PARTIALLY_USED: 2, UNUSED: 3, CANCELLED: 4, LOST: 5 } as const;

export const ISSUANCE_STATUS = { NOT_ISSUED: 1, ISSUED: 2 } as const;

export const INVOICE_TYPE = { REQUEST: 1, ISSUED: 2, RETURN: 3, TURNOVER: 4 } as const;

export const INVOICE_STATUS = { PENDING: 1, IN_TRANSIT: 2, ISSUED: 3, COMPLETED: 4 } as const;

/** Series entry states (docs/design.md §9): the spec's 1 and 2, plus 3 cancelled (spoiled or voided) and 4 lost. */
export const SERIES_ENTRY = { NOT_USED: 1, USED: 2, CANCELLED: 3, LOST: 4 } as const;

/** The same four states by name, as find-receipt, pad-history and outcome payloads say them. */
export const NUMBER_STATES = ['not_used', 'used', 'cancelled', 'lost'] as const;
export type NumberStateName = (typeof NUMBER_STATES)[number];
export const NUMBER_STATE_OF_ENTRY: Record<number, NumberStateName> = { 1: 'not_used', 2: 'used', 3: 'cancelled', 4: 'lost' };

export const SEED_LOOKUPS = {
  roles: [
    [1, 'Admin'],
    [2, 'IT Admin'],
    [3, 'Custodian'],
    [4, 'Branch Custodian'],
    [5, 'Branch Head'],
    [6, 'Supervisor'],
    [7, 'Ticketing Officer'],
    [8, 'Accounting'],
    [9, 'Auditor'],
    [10, 'Driver'],
    [11, 'Messenger'],
  ],
  userStatuses: [
    [1, 'Active'],
    [2, 'Inactive'],
  ],
  companyTypes: [
    [1, 'Shipping Line'],
    [2, 'Travel Agency'],
    [3, 'Partner'],
  ],
  padStatuses: [
    [1, 'Used'],
    [2, 'Partially Used'],
    [3, 'Unused'],
    [4, 'Cancelled'],
    [5, 'Lost'],
  ],
  issuanceStatuses: [
    [1, 'Not Issued'],
    [2, 'Issued'],
  ],
  invoiceTypes: [
    [1, 'Request'],
    [2, 'Issued'],
    [3, 'Return'],
    [4, 'Turnover'],
  ],
  invoiceStatuses: [
    [1, 'Pending'],
    [2, 'In-Transit'],
    [3, 'Issued'],
    [4, 'Completed'],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [number, string]>>;

/** The page sizes a list offers (docs/user-guide.md "Screens"); `per_page` takes any size up to 100, these are the choices shown. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** docs/design.md §10: the kinds of form an Authority to Print covers, as the registry and the inventory word them. */
export const FORM_TYPES = {
  invoice: 'Invoice',
  converted_receipt: 'Official Receipt converted to Invoice',
  supplementary: 'Supplementary',
} as const;
export type FormType = keyof typeof FORM_TYPES;

/** docs/design.md §9 loss incidents: reported, then confirmed (writes `lost`, makes the Notice of Loss) or rejected. */
export const INCIDENT_STATUSES = ['reported', 'confirmed', 'rejected'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The incident statuses as screens and exports word them. */
export const INCIDENT_STATUS_TEXT: Record<(typeof INCIDENT_STATUSES)[number], string> = {
  reported: 'Reported',
  confirmed: 'Confirmed',
  rejected: 'Rejected',
};
