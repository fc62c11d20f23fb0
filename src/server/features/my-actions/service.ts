import { calendarDayText, dateInZone, dayTimeText, invoiceWithPads, numberRange, routeLabel } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { acceptConditions, can, canOpenScreen, homePath, type Actor } from '../../../shared/permissions.ts';
import {
  MY_ACTION_ITEM_LIMIT,
  MY_ACTION_KINDS,
  MY_ACTION_TITLES,
  type MyActionGroup,
  type MyActionKind,
  type MyActions,
} from '../../../shared/schemas/my-actions.ts';
import { pendingWord } from '../../../shared/pending-outcomes.ts';
import { acceptQuestion } from '../../../shared/schemas/custodies.ts';
import type { AppContext } from '../../context.ts';
import * as counts from '../counts/read-model.ts';
import * as incidents from '../incidents/read-model.ts';
import * as ledger from '../ledger/read-model.ts';
import { handOversToAccept, workQueue, type WorkQueueRow } from '../invoices/read-model.ts';
import * as outcomes from '../outcomes/read-model.ts';
import { exceptionQueue } from '../outages/read-model.ts';

/** Which groups a role has at all: issuing is roles 1 and 3; accepting and overdue returns need Transactions; anyone with a role may carry. */
function kindsFor(actor: Actor): MyActionKind[] {
  const applies: Record<MyActionKind, boolean> = {
    issue: can(actor, 'invoice.issue'),
    accept: canOpenScreen(actor, 'invoices'),
    carry: actor.role_id !== null,
    overdue: canOpenScreen(actor, 'invoices'),
    approve_outcome: can(actor, 'number.approveOutcome'),
    outcome_pending: can(actor, 'number.writeOff'),
    confirm_loss: can(actor, 'incident.decide'),
    confirm_found: can(actor, 'incident.found'),
    count_due: can(actor, 'count.use'),
    count_ask: actor.role_id !== null,
    accept_hand_over: actor.role_id !== null,
    ledger_check: can(actor, 'ledgerCheck.read'),
    paper_use_exception: can(actor, 'paperUse.decide'),
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
  approve_outcome: '?outcome_requests=pending',
  outcome_pending: '',
  confirm_loss: '?status=reported',
  confirm_found: '?found=pending',
  count_due: '',
  count_ask: '',
  accept_hand_over: '',
  ledger_check: '',
  paper_use_exception: '?tab=exceptions',
};

/** docs/design.md §9: cancellations wait on Inventories, losses and finds on Incidents. */
const NUMBER_SCREENS: Partial<Record<MyActionKind, '/pads' | '/incidents'>> = {
  approve_outcome: '/pads',
  outcome_pending: '/pads',
  confirm_loss: '/incidents',
  confirm_found: '/incidents',
};
const INVOICE_KINDS: readonly MyActionKind[] = ['issue', 'accept', 'carry', 'overdue'];

/** The outcome and incident groups of Needs my action, each one query on its owner's tables; shown only while something waits. */
async function numberGroups(ctx: AppContext, actor: Actor, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  const groups: MyActionGroup[] = [];
  for (const kind of kinds) {
    const screen = NUMBER_SCREENS[kind];
    if (!screen) continue;
    const base = { kind, title: MY_ACTION_TITLES[kind], menu_path: screen, list_path: `${screen}${LIST_FILTERS[kind]}` };
    if (kind === 'approve_outcome' || kind === 'outcome_pending') {
      const { rows, total } =
        kind === 'approve_outcome'
          ? await outcomes.approvalQueue(ctx.db, actor, MY_ACTION_ITEM_LIMIT)
          : await outcomes.requestedBy(ctx.db, actor.id, MY_ACTION_ITEM_LIMIT);
      groups.push({
        ...base,
        count: total,
        items: rows.map((row) => ({
          id: row.id,
          label:
            kind === 'approve_outcome'
              ? `${row.outcome === 'lost' ? 'Lost' : 'Cancel'} ${numberRange(Number(row.from_number), Number(row.to_number), '\u2013')} · pad ${row.pad_number} · ${row.route_name} · ${row.requester_name ?? ''}`
              : `${numberRange(Number(row.from_number), Number(row.to_number), '\u2013')}: ${pendingWord(row.outcome)} · pad ${row.pad_number} · ${row.route_name}`,
          path: kind === 'approve_outcome' ? `/pads?pad=${row.pad_id}&outcome_request=${row.id}` : `/pads?pad=${row.pad_id}`,
        })),
      });
    } else {
      const rows =
        kind === 'confirm_loss'
          ? await incidents.confirmQueue(ctx.db, actor, actor.role_id === ROLE.BRANCH_HEAD, MY_ACTION_ITEM_LIMIT)
          : await incidents.foundQueue(ctx.db, actor.id, MY_ACTION_ITEM_LIMIT);
      groups.push({
        ...base,
        count: rows[0]?.total ?? 0,
        items: rows.map((row) => ({
          id: row.id,
          label:
            row.found_from === null || row.found_to === null
              ? `${row.number} · ${row.place}`
              : `${row.number} · found ${numberRange(row.found_from, row.found_to, '\u2013')}`,
          path: `/incidents?incident=${row.id}`,
        })),
      });
    }
  }
  return groups;
}

/** docs/design.md §9 count schedule: the holders not counted for COUNT_EVERY_DAYS days (or never); Counts opens from Inventories. */
export async function countDueGroup(ctx: AppContext, actor: Actor, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  if (!kinds.includes('count_due')) return [];
  const rows = await counts.due(ctx.db, actor, ctx.config.countEveryDays, MY_ACTION_ITEM_LIMIT);
  if (rows.length === 0) return [];
  return [
    {
      kind: 'count_due',
      title: MY_ACTION_TITLES.count_due,
      count: rows[0].total,
      menu_path: '/pads',
      list_path: `/counts${LIST_FILTERS.count_due}`,
      items: rows.map((row) => ({
        id: row.id,
        label: `${row.type === 'branch' ? 'Branch ' : ''}${row.name} · ${row.last_counted ? `last counted ${dateInZone(new Date(row.last_counted), ctx.config.timeZone)}` : 'never counted'}`,
        path: `/counts?${row.type}=${row.id}`,
      })),
    },
  ];
}

/** Issue 36: what open counts ask of this user (report a loss, record usage) while the variance stays open; in Counts. */
async function countAskGroup(ctx: AppContext, actor: Actor, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  if (!kinds.includes('count_ask')) return [];
  const rows = await counts.asksOf(ctx.db, actor.id, MY_ACTION_ITEM_LIMIT);
  if (rows.length === 0) return [];
  return [
    {
      kind: 'count_ask',
      title: MY_ACTION_TITLES.count_ask,
      count: rows[0].total,
      menu_path: '/pads',
      list_path: '/pads',
      items: rows.map((row) => ({ id: row.id, label: row.label, path: `/pads?pad=${row.pad_id}` })),
    },
  ];
}

/** docs/design.md §5 two-party hand-over: "Nestor hands you Return #17, 12 pads — Accept custody?", answered in Custodies. */
async function handOverGroup(ctx: AppContext, actor: Actor, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  if (!kinds.includes('accept_hand_over')) return [];
  const rows = await handOversToAccept(ctx.db, actor.id, MY_ACTION_ITEM_LIMIT);
  if (rows.length === 0) return [];
  return [
    {
      kind: 'accept_hand_over',
      title: MY_ACTION_TITLES.accept_hand_over,
      count: rows[0].total,
      menu_path: '/custodies',
      list_path: `/custodies${LIST_FILTERS.accept_hand_over}`,
      items: rows.map((row) => ({ id: row.invoice_id, label: acceptQuestion(row), path: '/custodies' })),
    },
  ];
}

/** A failed ledger check (docs/design.md §8 verifier) stays here until a later check passes; the Dashboard shows what it found. */
async function ledgerCheckGroup(ctx: AppContext, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  if (!kinds.includes('ledger_check')) return [];
  const check = await ledger.latestCheck(ctx.db);
  if (!check || check.ok) return [];
  const what = check.mode === 'full' ? 'full check' : 'quick check';
  return [
    {
      kind: 'ledger_check',
      title: MY_ACTION_TITLES.ledger_check,
      count: 1,
      menu_path: '/dashboard',
      list_path: `/dashboard${LIST_FILTERS.ledger_check}`,
      items: [
        {
          id: check.id,
          label: `${check.problems} problem(s) found by the ${what} of ${dayTimeText(check.finished_at, ctx.config.timeZone)}`,
          path: '/dashboard',
        },
      ],
    },
  ];
}

/** Issue 38: paper used outside an outage is decided on the Outages screen's exceptions tab, as soon as it is recorded. */
async function paperUseGroup(ctx: AppContext, kinds: MyActionKind[]): Promise<MyActionGroup[]> {
  if (!kinds.includes('paper_use_exception')) return [];
  const rows = await exceptionQueue(ctx.db, MY_ACTION_ITEM_LIMIT);
  if (rows.length === 0) return [];
  return [
    {
      kind: 'paper_use_exception',
      title: MY_ACTION_TITLES.paper_use_exception,
      count: rows[0].total,
      menu_path: '/outages',
      list_path: `/outages${LIST_FILTERS.paper_use_exception}`,
      items: rows.map((row) => ({
        id: row.id,
        label: [
          numberRange(row.number_from, row.number_to, '\u2013'),
          `pad ${row.pad_number}`,
          row.route_name,
          row.branch_name,
          dayTimeText(row.used_at, ctx.config.timeZone),
          row.holder_name,
        ]
          .filter(Boolean)
          .join(' · '),
        path: `/outages?tab=exceptions&exception=${row.id}`,
      })),
    },
  ];
}

const listPath = (screen: '/invoices' | '/custodies', kind: MyActionKind) =>
  screen === '/custodies' ? screen : `${screen}${LIST_FILTERS[kind]}`;

const detailsPath = (screen: '/invoices' | '/custodies', id: number) =>
  screen === '/custodies' ? `/custodies?custody=${id}` : `/invoices?invoice=${id}`;

function label(row: WorkQueueRow): string {
  const route = row.route_name ? routeLabel({ name: row.route_name, company: { name: row.company_name } }) : null;
  const where = row.from_branch && row.to_branch ? `${row.from_branch} → ${row.to_branch}` : (row.to_branch ?? row.from_branch);
  const due = row.kind === 'overdue' && row.expected_return_date ? `due ${calendarDayText(row.expected_return_date)}` : null;
  return [invoiceWithPads(row.invoice_type, row.id, row.pad_count), route, where, due].filter(Boolean).join(' · ');
}

/**
 * "Needs my action" (README "Screens"): what waits for this user, grouped with counts and links that open each item, in one
 * query so the web can poll it every minute for the menu badges.
 */
export async function myActions(ctx: AppContext, actor: Actor): Promise<MyActions> {
  const kinds = kindsFor(actor);
  const invoiceKinds = kinds.filter((kind) => INVOICE_KINDS.includes(kind));
  const rows = await workQueue(ctx.db, {
    userId: actor.id,
    accept: acceptConditions(actor),
    today: dateInZone(new Date(), ctx.config.timeZone),
    kinds: invoiceKinds,
  });
  const invoiceGroups: MyActionGroup[] = invoiceKinds.map((kind) => {
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
  const groups = [
    ...invoiceGroups,
    ...(await numberGroups(ctx, actor, kinds)).filter((group) => group.count > 0),
    ...(await countDueGroup(ctx, actor, kinds)),
    ...(await countAskGroup(ctx, actor, kinds)),
    ...(await handOverGroup(ctx, actor, kinds)),
    ...(await ledgerCheckGroup(ctx, kinds)),
    ...(await paperUseGroup(ctx, kinds)),
  ];
  return { total: groups.reduce((sum, group) => sum + group.count, 0), groups };
}
