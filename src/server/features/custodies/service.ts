import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { invoiceScope, type Actor } from '../../../shared/permissions.ts';
import type { ListQuery, Paginated } from '../../../shared/schemas/common.ts';
import type { HeldPad, InTransitQuery } from '../../../shared/schemas/custodies.ts';
import type { InvoicePage } from '../../../shared/schemas/invoices.ts';
import type { AppContext } from '../../context.ts';
import { paginated } from '../../lib/pagination.ts';
import { listInvoices } from '../invoices/read-model.ts';
import { listHeldPads } from '../pads/repo.ts';

/** The custodies list: In-Transit invoices inside the one invoice scope (docs/design.md §5 "Who sees what"). */
export async function listInTransit(ctx: AppContext, actor: Actor, query: InTransitQuery): Promise<InvoicePage> {
  const { rows, total } = await listInvoices(
    ctx.db,
    {
      scope: invoiceScope(actor),
      statusId: INVOICE_STATUS.IN_TRANSIT,
      typeId: query.invoice_type,
      search: query.search ? { text: query.search, by: 'branchOrPad' } : undefined,
    },
    { page: query.page, perPage: query.per_page, sort: query.sort, direction: query.order },
    ctx.config.timeZone,
  );
  return { ...paginated(rows, total, query.page, query.per_page), time_zone: ctx.config.timeZone };
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
