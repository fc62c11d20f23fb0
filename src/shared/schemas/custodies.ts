import { z } from 'zod';
import { CUSTODY_MSG } from '../messages.ts';
import { listQuery, type NamedRef } from './common.ts';
import type { Pad } from './pads.ts';

const MAX_ID = 2_147_483_647;
/** The most pads one Return or Turnover may carry. */
export const MAX_PADS_PER_TRANSFER = 500;

/** An id picked in a select; every failure says the one message the spec gives for it. */
const pickedId = (message: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message),
  );

const padIds = z
  .array(z.coerce.number({ error: CUSTODY_MSG.selectPad }).int(CUSTODY_MSG.selectPad).positive(CUSTODY_MSG.selectPad).max(MAX_ID, CUSTODY_MSG.selectPad), {
    error: CUSTODY_MSG.selectPad,
  })
  .min(1, CUSTODY_MSG.selectPad)
  .max(MAX_PADS_PER_TRANSFER, `At most ${MAX_PADS_PER_TRANSFER} pads can be moved at once`)
  .transform((ids) => [...new Set(ids)]);

export const inTransitQuery = listQuery.extend({
  invoice_type: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(32_767).optional()),
});
export type InTransitQuery = z.infer<typeof inTransitQuery>;

export const userPadsQuery = listQuery;

export const returnInvoiceSchema = z.object({
  pads: padIds,
  assigned_user_id: pickedId(CUSTODY_MSG.selectAssignee),
});
export type ReturnInvoiceInput = z.input<typeof returnInvoiceSchema>;

export const turnoverInvoiceSchema = z.object({
  pads: padIds,
  branch_id: pickedId(CUSTODY_MSG.selectBranch),
  assigned_user_id: pickedId(CUSTODY_MSG.selectAssignee),
});
export type TurnoverInvoiceInput = z.input<typeof turnoverInvoiceSchema>;

export const handOverSchema = z.object({
  assigned_user_id: pickedId(CUSTODY_MSG.handOverToRequired),
});
export type HandOverInput = z.input<typeof handOverSchema>;

export interface PersonRef {
  id: number;
  full_name: string;
}

/** One row of the custodies list, shaped like spec §3's Invoice. */
export interface CustodyInvoice {
  id: number;
  invoice_type_id: number;
  invoice_status_id: number;
  invoice_type: NamedRef;
  invoice_status: NamedRef;
  user_id: number;
  user: PersonRef & { branch_id: number | null; branch: NamedRef | null };
  created_by: number;
  from_branch_id: number | null;
  from_branch: NamedRef | null;
  branch_id: number | null;
  branch: NamedRef | null;
  route_id: number | null;
  route: { id: number; name: string; tin: string; company: NamedRef } | null;
  assigned_user_id: number | null;
  assigned_user: PersonRef | null;
  assigned_to: string | null;
  pads: number;
  expected_return_date: string | null;
  created_at: string;
}

/** A pad the caller holds, as get-user-pads lists it: the same shape as every pad endpoint. */
export type HeldPad = Pad;
