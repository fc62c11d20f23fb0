import { z } from 'zod';
import { CUSTODY_MSG } from '../messages.ts';
import { listQuery } from './common.ts';
import { id, pickedId } from './fields.ts';
import type { Pad } from './pads.ts';

/** The most pads one Return or Turnover may carry. */
export const MAX_PADS_PER_TRANSFER = 500;

const padIds = z
  .array(id(CUSTODY_MSG.selectPad), { error: CUSTODY_MSG.selectPad })
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

/** A pad the caller holds, as get-user-pads lists it: the same shape as every pad endpoint. */
export type HeldPad = Pad;
