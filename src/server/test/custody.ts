import { desc, eq } from 'drizzle-orm';
import { INVOICE_TYPE } from '../../shared/lookups.ts';
import { invoices } from '../db/schema/invoices.ts';
import { apiCalls } from './inject.ts';
import type { TestApp } from './test-app.ts';

type Signed = { headers: { authorization: string } };

/** The newest invoice of a type, for tests that read an invoice the API made from the stored state, not from an answer. */
export async function latestInvoice(t: TestApp, typeId: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.invoice_type_id, typeId)).orderBy(desc(invoices.id)).limit(1);
  return row;
}

/**
 * Pads put in a holder's hands the way the lifecycle does it, through the real API, so their ledger is the one a user
 * leaves: the holder requests as many pads of the route as given, the custodian issues them to the courier (back in
 * 3 days), and the holder accepts the newest Issued invoice. Answers that invoice's id.
 */
export async function issueAndAccept(
  t: TestApp,
  cast: { holder: Signed; custodian: Signed; courier: { id: number }; routeId: number; padIds: number[] },
): Promise<number> {
  const { call, ok } = apiCalls(() => t);
  const { holder, custodian, courier, routeId, padIds } = cast;
  const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: padIds.length }), 201);
  await ok(
    call(custodian, 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: padIds,
      assigned_user_id: courier.id,
      expected_return: 3,
    }),
    201,
  );
  const issued = await latestInvoice(t, INVOICE_TYPE.ISSUED);
  await ok(call(holder, 'POST', `/api/accept-invoice/${issued.id}`));
  return issued.id;
}

/** A number-outcome body that cancels from..to as spoiled with the copies kept, the reason every approver accepts. */
export const cancellation = (from: number, to: number, details = 'coffee') => ({
  from,
  to,
  outcome: 'cancelled',
  reason: 'Spoiled (torn, stained, misprinted)',
  details,
  copies_retained: true,
});
