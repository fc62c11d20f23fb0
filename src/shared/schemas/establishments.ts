import { z } from 'zod';
import { optionalText, text } from './common.ts';
import { isoDate } from './fields.ts';

export const ESTABLISHMENT_MSG = {
  saved: 'E-invoicing details saved',
  branchMissing: 'Branch not found.',
  branchCode: 'BIR Branch Code must be 3 to 5 digits',
  sinceRequired: 'E-invoicing since is required when the branch issues e-invoices',
  systemRequired: 'Invoicing system is required when the branch issues e-invoices',
} as const;

/** PUT branches/{id}/e-invoicing: the branch as a tax establishment, and whether (since when) it issues e-invoices. */
export const establishmentInput = z
  .object({
    bir_branch_code: text('BIR Branch Code', ESTABLISHMENT_MSG.branchCode)
      .trim()
      .regex(/^\d{3,5}$/, ESTABLISHMENT_MSG.branchCode),
    covered: z.boolean({ error: 'Covered must be true or false' }),
    e_invoicing_since: z.preprocess((v) => (v === '' ? null : v), isoDate('E-invoicing since').nullish()),
    permit_reference: optionalText('Permit reference', 120),
    invoicing_system: optionalText('Invoicing system', 120),
  })
  .superRefine((v, ctx) => {
    if (!v.covered) return;
    if (!v.e_invoicing_since) ctx.addIssue({ code: 'custom', message: ESTABLISHMENT_MSG.sinceRequired, path: ['e_invoicing_since'] });
    if (!v.invoicing_system) ctx.addIssue({ code: 'custom', message: ESTABLISHMENT_MSG.systemRequired, path: ['invoicing_system'] });
  });
export type EstablishmentInput = z.output<typeof establishmentInput>;

/** GET branches/{id}/e-invoicing: a branch never set answers covered false with nulls. */
export const establishmentSchema = z
  .object({
    branch_id: z.number(),
    bir_branch_code: z.string().nullable(),
    covered: z.boolean(),
    e_invoicing_since: z.string().nullable(),
    permit_reference: z.string().nullable(),
    invoicing_system: z.string().nullable(),
    updated_by: z.object({ id: z.number(), name: z.string() }).nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'Establishment' });
export type Establishment = z.infer<typeof establishmentSchema>;
