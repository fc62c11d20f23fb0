import { dateInZone, routeLabel } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { acceptConditions, can, canOpenScreen, homePath, type Actor } from '../../../shared/permissions.ts';
import { MY_ACTION_KINDS, MY_ACTION_TITLES, type MyActionKind, type MyActions } from '../../../shared/schemas/my-actions.ts';
import type { AppContext } from '../../context.ts';
import { workQueue, type WorkQueueRow } from '../invoices/read-model.ts';

/** Which groups a role has at all: issuing is roles 1 and 3; accepting and overdue returns need Transactions; anyone with a role may carry. */
function kindsFor(actor: Actor): MyActionKind[] {
  const applies: Record<MyActionKind, boolean> = {
    issue: can(actor, 'invoice.issue'),
    accept: canOpenScreen(actor, 'invoices'),
    carry: actor.role_id !== null,
    overdue: canOpenScreen(actor, 'invoices'),
    approve_outcome: false,
    confirm_loss: false,
    confirm_found: false,
  };
  return MY_ACTION_KINDS.filter((kind) => applies[kind]);
}

/** Custody is opened in Custodies; the rest in Transactions, except that accepting stays on a Custodies home (role 4). */
function screenOf(actor: Actor, kind: MyActionKind): '/invoices' | '/custodies' {
  if (kind === 'carry') return '/custodies';
  if (kind === 'accept' && homePath(actor.role_id) === '/custodies') return '/custodies';
  return '/invoices';
}

/** The list filters of the web (use-list-params: the filter names are the URL keys) that narrow a screen to one group. */
const LIST_FILTERS: Record<MyActionKind, string> = {
  issue: `?invoiceType=${INVOICE_TYPE.REQUEST}&invoiceStatus=${INVOICE_STATUS.PENDING}`,
  accept: `?invoiceStatus=${INVOICE_STATUS.IN_TRANSIT}`,
  carry: '',
  overdue: `?invoiceType=${INVOICE_TYPE.ISSUED}&invoiceStatus=${INVOICE_STATUS.COMPLETED}`,
  approve_outcome: '',
  confirm_loss: '',
  confirm_found: '',
};

const listPath = (screen: '/invoices' | '/custodies', kind: MyActionKind) => (screen === '/custodies' ? screen : `${screen}${LIST_FILTERS[kind]}`);

const detailsPath = (screen: '/invoices' | '/custodies', id: number) => (screen === '/custodies' ? `/custodies?custody=${id}` : `/invoices?invoice=${id}`);

function label(row: WorkQueueRow): string {
  const route = row.route_name ? routeLabel({ name: row.route_name, company: { name: row.company_name } }) : null;
  const pads = `${row.pad_count} ${row.pad_count === 1 ? 'pad' : 'pads'}`;
  const where = row.from_branch && row.to_branch ? `${row.from_branch} → ${row.to_branch}` : (row.to_branch ?? row.from_branch);
  const due = row.kind === 'overdue' && row.expected_return_date ? `due ${row.expected_return_date}` : null;
  return [`${row.invoice_type} #${row.id}`, pads, route, where, due].filter(Boolean).join(' · ');
}

/**
 * "Needs my action" (README "Screens"): what waits for this user, grouped with counts and links that open each item, in one
 * query so the web can poll it every minute for the menu badges.
 */
export async function myActions(ctx: AppContext, actor: Actor): Promise<MyActions> {
  const kinds = kindsFor(actor);
  const rows = await workQueue(ctx.db, {
    userId: actor.id,
    accept: acceptConditions(actor),
    today: dateInZone(new Date(), ctx.config.timeZone),
    kinds,
  });
  const groups = kinds.map((kind) => {
    const mine = rows.filter((row) => row.kind === kind);
    const screen = screenOf(actor, kind);
    return {
      kind,
      title: MY_ACTION_TITLES[kind],
      count: mine[0]?.total ?? 0,
      menu_path: screen,
      list_path: listPath(screen, kind),
      items: mine.map((row) => ({ id: row.id, label: label(row), path: detailsPath(screen, row.id) })),
    };
  });
  return { total: groups.reduce((sum, group) => sum + group.count, 0), groups };
}
