import { z } from 'zod';
import { optionalText, requiredText } from './common.ts';

/** The documents PadTrack prints; each may name its own signatory for the operator. */
export const DOCUMENT_KINDS = {
  raaf: 'RAAF',
  report: 'Completed Issued Invoices Report',
  notice_of_loss: 'Notice of Loss',
  transmittal_slip: 'Transmittal slip',
  count_certificate: 'Physical count certificate',
  unused_forms: 'Inventory of unused forms',
  paper_use_summary: 'Summary list of paper used beside e-invoicing',
} as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;
// -- DOCUMENT_KINDS is keyed by DocumentKind and not empty; z.enum wants the non-empty tuple.
export const DOCUMENT_KIND_KEYS = Object.keys(DOCUMENT_KINDS) as [DocumentKind, ...DocumentKind[]];

/** A PNG logo may be at most this many bytes (an SVG is drawn into a PNG by the browser before it is sent). */
export const LOGO_MAX_BYTES = 256 * 1024;
/** And at most this many pixels on a side. */
export const LOGO_MAX_SIDE = 2000;

export const IDENTITY_MSG = {
  saved: 'Operator identity saved',
  logoSaved: 'Logo saved',
  logoRemoved: 'Logo removed',
  tin: 'TIN must be nine digits, as 004-512-889',
  branchCode: 'Branch code must be 3 to 5 digits, as 000',
  logoType: 'The logo must be a PNG image (an SVG is converted to PNG before it is sent).',
  logoTooLarge: `The logo may not be larger than ${LOGO_MAX_BYTES / 1024} KB.`,
  logoTooWide: `The logo may not be larger than ${LOGO_MAX_SIDE} pixels on a side.`,
  logoUnreadable: 'The logo could not be read as a PNG image.',
  logoMissing: 'No logo has been uploaded.',
  signatoryPair: 'Give both the name and the position of the signatory, or neither.',
} as const;

const TIN_PATTERN = /^\d{3}-?\d{3}-?\d{3}$/;
const BRANCH_CODE_PATTERN = /^\d{3,5}$/;

/** The name and position printed under a document's signature line for the operator. */
export const signatorySchema = z
  .object({ name: optionalText('Signatory name', 120), position: optionalText('Signatory position', 120) })
  .refine((s) => !s.name === !s.position, { message: IDENTITY_MSG.signatoryPair, path: ['position'] });
export type Signatory = { name: string; position: string };

/** PUT settings/operator-identity: everything but the logo, which has its own endpoint. */
export const operatorIdentityInput = z.object({
  registered_name: requiredText('Registered name', 200),
  trade_name: optionalText('Trade name', 200),
  tin: requiredText('TIN', 11)
    .regex(TIN_PATTERN, IDENTITY_MSG.tin)
    .transform((v) => v.replace(/\D/g, '').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1-$2-$3')),
  branch_code: requiredText('Branch code', 5).regex(BRANCH_CODE_PATTERN, IDENTITY_MSG.branchCode),
  address: requiredText('Address', 400),
  signatories: z.partialRecord(z.enum(DOCUMENT_KIND_KEYS), signatorySchema).default({}),
});
export type OperatorIdentityInput = z.input<typeof operatorIdentityInput>;
export type OperatorIdentityValues = z.output<typeof operatorIdentityInput>;

const signatoryOut = z.object({ name: z.string(), position: z.string() });

/** GET settings/operator-identity: null fields until an administrator sets the identity. */
export const operatorIdentityResponse = z
  .object({
    registered_name: z.string().nullable(),
    trade_name: z.string().nullable(),
    tin: z.string().nullable(),
    branch_code: z.string().nullable(),
    address: z.string().nullable(),
    signatories: z.partialRecord(z.enum(DOCUMENT_KIND_KEYS), signatoryOut),
    logo: z.string().nullable().describe('The logo as a data: URL of a PNG, or null'),
    logo_updated_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'OperatorIdentity' });
export type OperatorIdentityResponse = z.infer<typeof operatorIdentityResponse>;

/** PUT settings/operator-identity/logo: the PNG's bytes in base64 (a data: URL prefix is allowed). */
export const logoInput = z.object({
  png: z
    .string({ error: IDENTITY_MSG.logoType })
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 64, IDENTITY_MSG.logoTooLarge)
    .transform((v) => v.replace(/^data:image\/png;base64,/, ''))
    .refine((v) => /^[A-Za-z0-9+/]*={0,2}$/.test(v), IDENTITY_MSG.logoType),
});
export type LogoInput = z.input<typeof logoInput>;

/**
 * What a document prints of the operator, frozen into the document when it is made. Without an identity set the
 * header prints the application's name.
 */
export interface IdentitySnapshot {
  registeredName: string | null;
  tradeName: string | null;
  /** "004-512-889-000": the TIN and its branch code. */
  tin: string | null;
  address: string | null;
  /** The PNG logo, base64, or null. */
  logo: string | null;
  signatories: Partial<Record<DocumentKind, Signatory>>;
}

/** What a document prints when no administrator has set the operator's identity: the application's own name. */
export const NO_IDENTITY: IdentitySnapshot = {
  registeredName: null,
  tradeName: null,
  tin: null,
  address: null,
  logo: null,
  signatories: {},
};

/** The operator's name where one short line is all there is room for (a pad label, a badge): the trade name, else the registered name, else the application's. */
export const operatorShortName = (identity: IdentitySnapshot): string => identity.tradeName || identity.registeredName || 'PadTrack';
