import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { invoiceScope, type Actor } from '../../../shared/permissions.ts';
import type { ListQuery, Paginated } from '../../../shared/schemas/common.ts';
import type { HeldPad, InTransitQuery } from '../../../shared/schemas/custodies.ts';
import type { InvoicePage, InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import { paginated } from '../../lib/pagination.ts';
import { listInvoices, streamInvoices, type InvoiceFilter } from '../invoices/read-model.ts';
import { listHeldPads } from '../pads/read-model.ts';

/** The custodies list: In-Transit invoices inside the one invoice scope (docs/design.md §5 "Who sees what"). */
export async function listInTransit(ctx: AppContext, actor: Actor, query: InTransitQuery): Promise<InvoicePage> {
  const { rows, total } = await listInvoices(
    ctx.db,
    inTransitFilter(actor, query),
    { page: query.page, perPage: query.per_page, sort: query.sort, direction: query.order },
    ctx.config.timeZone,
  );
  return { ...paginated(rows, total, query.page, query.per_page), time_zone: ctx.config.timeZone };
}

const inTransitFilter = (actor: Actor, query: InTransitQuery): InvoiceFilter => ({
  scope: invoiceScope(actor),
  statusId: INVOICE_STATUS.IN_TRANSIT,
  typeId: query.invoice_type,
  search: query.search ? { text: query.search, by: 'branchOrPad' } : undefined,
});

/** docs/design.md §10 Export: every in-transit invoice of the Custodies list for these filters, in batches. */
export function inTransitSource(ctx: AppContext, actor: Actor, query: InTransitQuery): RowSource<InvoiceRow> {
  return (write) =>
    streamInvoices(ctx.db, inTransitFilter(actor, query), { sort: query.sort, direction: query.order }, ctx.config.timeZone, write);
}

/** The pads the caller can put on a Return or Turnover: held by them and not already in transit. */
export async function listUserPads(ctx: AppContext, actor: Actor, query: ListQuery): Promise<Paginated<HeldPad>> {
  const { rows, total } = await listHeldPads(ctx.db, {
    userId: actor.id,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  return paginated(rows, total, query.page, query.per_page);
}
