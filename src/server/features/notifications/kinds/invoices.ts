import { ACCEPT_RULES } from '../../../../shared/custody-rules.ts';
import { dateInZone, calendarDayText } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import { acceptConditions } from '../../../../shared/permissions.ts';
import type { AppContext } from '../../../context.ts';
import { alertInvoices, type AlertInvoiceRow } from '../../invoices/read-model.ts';
import type { AlertItem, EvaluationInput, Evaluator } from '../alert-item.ts';
import type { People } from '../people.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const invoiceLink = (id: number) => `/invoices?invoice=${id}`;
const invoiceName = (row: AlertInvoiceRow) => `${row.invoice_type} #${row.id} (${row.pad_count} pad${row.pad_count === 1 ? '' : 's'})`;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const hoursText = (hours: number) => (hours >= 48 ? `${Math.floor(hours / 24)} days` : `${Math.floor(hours)} h`);

/** Overdue return: the holder; their branch head after `overdue_head_days`; Accounting after `overdue_accounting_days`. */
function overdue(row: AlertInvoiceRow, input: EvaluationInput): AlertItem[] {
  const due = row.expected_return_date ?? input.today;
  const late = daysBetween(due, input.today);
  const holder = input.people.get(row.user_id);
  const base = {
    kind: 'overdue_return' as const,
    subject: { type: 'invoice', id: row.id },
    period: due,
    link: invoiceLink(row.id),
  };
  const items: AlertItem[] = [
    {
      ...base,
      recipientUserId: row.user_id,
      level: 0,
      title: `Return overdue: ${invoiceName(row)}`,
      body: `Due back on ${calendarDayText(due)}, ${late} day${late === 1 ? '' : 's'} ago; you still hold its pads.`,
    },
  ];
  const who = holder?.full_name ?? 'The holder';
  if (late >= input.thresholds.overdue_head_days)
    for (const head of input.people.branchHeads(holder?.branch_id ?? row.branch_id))
      items.push({
        ...base,
        recipientUserId: head.id,
        level: 1,
        title: `Return overdue ${late} days: ${invoiceName(row)}`,
        body: `${who} still holds pads due back on ${calendarDayText(due)}.`,
      });
  if (late >= input.thresholds.overdue_accounting_days)
    for (const person of input.people.withRoles([ROLE.ACCOUNTING]))
      items.push({
        ...base,
        recipientUserId: person.id,
        level: 2,
        title: `Return overdue ${late} days: ${invoiceName(row)}`,
        body: `${who} still holds pads due back on ${calendarDayText(due)}.`,
      });
  return items;
}

/** Who may accept an invoice in transit, by the accept rules (custody-rules.ts): the requester, or the roles (at its branch). */
function receivers(row: AlertInvoiceRow, people: People): number[] {
  const rule = ACCEPT_RULES[row.invoice_type_id];
  if (!rule) return [];
  if (rule.by === 'requester') return [row.user_id];
  return people.all
    .filter(
      (person) =>
        person.active &&
        acceptConditions(person).some(
          (c) =>
            c.invoice_type_id === row.invoice_type_id &&
            (c.user_id === undefined || c.user_id === row.user_id) &&
            (c.branch_id === undefined || c.branch_id === row.branch_id),
        ),
    )
    .map((person) => person.id);
}

/** Waiting to be accepted: receiver and courier after `waiting_hours`; Custodian and Accounting after `waiting_escalate_hours`. */
function waiting(row: AlertInvoiceRow, input: EvaluationInput, hours: number, timeZone: string): AlertItem[] {
  if (hours < input.thresholds.waiting_hours) return [];
  const base = {
    kind: 'waiting_acceptance' as const,
    subject: { type: 'invoice', id: row.id },
    period: dateInZone(row.created_at, timeZone),
    link: invoiceLink(row.id),
    title: `Waiting to be accepted: ${invoiceName(row)}`,
    body: `In transit for ${hoursText(hours)} and not accepted yet.`,
  };
  const first = new Set(receivers(row, input.people));
  if (row.assigned_user_id !== null) first.add(row.assigned_user_id);
  const items: AlertItem[] = [...first].map((id) => ({ ...base, recipientUserId: id, level: 0 }));
  if (hours >= input.thresholds.waiting_escalate_hours)
    for (const person of input.people.withRoles([ROLE.CUSTODIAN, ROLE.ACCOUNTING]))
      items.push({ ...base, recipientUserId: person.id, level: 1 });
  return items;
}

/** Courier custody stale: the courier and (level 1) the Custodian, once the courier has carried it `courier_stale_hours`. */
function courierStale(row: AlertInvoiceRow, input: EvaluationInput, hours: number, timeZone: string): AlertItem[] {
  if (row.assigned_user_id === null || hours < input.thresholds.courier_stale_hours) return [];
  const courier = input.people.get(row.assigned_user_id);
  const base = {
    kind: 'courier_stale' as const,
    subject: { type: 'invoice', id: row.id },
    period: dateInZone(row.created_at, timeZone),
    link: invoiceLink(row.id),
  };
  return [
    {
      ...base,
      recipientUserId: row.assigned_user_id,
      level: 0,
      title: `You have carried ${invoiceName(row)} for ${hoursText(hours)}`,
      body: 'Hand it over or have it accepted.',
    },
    ...input.people.withRoles([ROLE.CUSTODIAN]).map((person) => ({
      ...base,
      recipientUserId: person.id,
      level: 1,
      title: `Courier custody stale: ${invoiceName(row)}`,
      body: `${courier?.full_name ?? 'The courier'} has carried it for ${hoursText(hours)}.`,
    })),
  ];
}

/** The three invoice kinds from one read of the invoices in transit and overdue (invoices/read-model.ts alertInvoices). */
export const evaluator: Evaluator = {
  kinds: ['overdue_return', 'waiting_acceptance', 'courier_stale'],
  evaluate: async (ctx: AppContext, input: EvaluationInput) => {
    const rows = await alertInvoices(ctx.db, input.today);
    return rows.flatMap((row) => {
      if (row.kind === 'overdue') return overdue(row, input);
      const hours = (input.now.getTime() - row.created_at.getTime()) / HOUR_MS;
      return [...waiting(row, input, hours, ctx.config.timeZone), ...courierStale(row, input, hours, ctx.config.timeZone)];
    });
  },
};
