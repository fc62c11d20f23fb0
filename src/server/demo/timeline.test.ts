import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateInZone, dayText } from '../../shared/format.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { loadDemo } from './load.ts';

const ZONE = 'Asia/Manila';
let t: TestApp;

type Row = Record<string, string | null>;
const rows = async (query: string) => ((await t.db.execute(sql.raw(query))) as unknown as { rows: Row[] }).rows;
const day = (instant: string | null) => (instant ? dateInZone(new Date(instant), ZONE) : null);

beforeAll(async () => {
  t = await createTestApp({ APP_TIMEZONE: ZONE });
  await loadDemo(t.app, t.ctx);
}, 600_000);
afterAll(async () => {
  await t.close();
});

describe('the demo has one timeline', () => {
  it('when the demo is loaded, then each invoice is dated on the days of its ledger events, its history on its own days, and the invoices span three months', async () => {
    const invoices = await rows(`select i.id, i.created_at::text created, i.accepted_at::text accepted, i.expected_return_date::text due,
        (select min(e.recorded_at)::text from pad_events e where e.invoice_id = i.id) first_event,
        (select max(e.recorded_at)::text from pad_events e where e.invoice_id = i.id) last_event
      from invoices i order by i.id`);
    for (const invoice of invoices.filter((i) => i.first_event)) {
      expect(day(invoice.created), `invoice ${invoice.id}`).toBe(day(invoice.first_event));
      if (invoice.accepted) expect(day(invoice.accepted), `invoice ${invoice.id}`).toBe(day(invoice.last_event));
      if (invoice.due) expect(invoice.due > (day(invoice.created) ?? ''), `invoice ${invoice.id}`).toBe(true);
    }
    const byId = new Map(invoices.map((i) => [i.id, i]));
    for (const activity of await rows('select invoice_id, created_at::text created from activities')) {
      const invoice = byId.get(activity.invoice_id);
      expect([day(invoice?.created ?? null), day(invoice?.accepted ?? null)]).toContain(day(activity.created));
    }
    const months = new Set(invoices.map((i) => day(i.created)?.slice(0, 7)));
    expect(months.size).toBe(3);
  });

  it('when the demo is loaded, then its confirmed loss and its closed count are dated on the days of their ledger events', async () => {
    const [loss] = await rows(`select l.decided_at::text decided, l.no_affidavit_reason reason,
        (select max(e.recorded_at)::text from pad_events e where e.incident_id = l.id) lost
      from loss_incidents l where l.status = 'confirmed'`);
    expect(loss.reason).toBe('Affidavit to follow');
    expect(day(loss.decided)).toBe(day(loss.lost));
    const [count] = await rows(`select c.closed_at::text closed, c.signed_off_by::text signer,
        (select count(*)::text from count_resolutions r where r.count_id = c.id) resolved,
        (select max(e.recorded_at)::text from pad_events e join count_items i on i.pad_id = e.pad_id
          where i.count_id = c.id and e.kind = 'used') used
      from count_sessions c where c.status = 'closed' and c.holder_branch_id is not null`);
    expect(count.signer).not.toBeNull();
    expect(count.resolved).toBe('1');
    expect(day(count.closed)).toBe(day(count.used));
  });

  it('when the demo is loaded, then the saved report covers the span of its invoices and its remarks name that span', async () => {
    const [report] = await rows(`select r.remarks, r.period_from::text period_from, r.period_to::text period_to,
        (select min(i.created_at)::text from invoices i join report_invoices ri on ri.invoice_id = i.id where ri.report_id = r.id) first_issued,
        (select max(i.accepted_at)::text from invoices i join report_invoices ri on ri.invoice_id = i.id where ri.report_id = r.id) last_accepted
      from reports r`);
    expect(report.period_from).toBe(day(report.first_issued));
    expect(report.period_to).toBe(day(report.last_accepted));
    expect(report.period_from).not.toBe(report.period_to);
    const named = (date: string | null) => dayText(new Date(`${date ?? ''}T00:00:00Z`), 'UTC');
    expect(report.remarks).toContain(`${named(report.period_from)} to ${named(report.period_to)}`);
  });

  it('when the demo is loaded, then one covered establishment has a closed outage with a linked paper range and an open exception', async () => {
    const covered = await rows(`select b.name from establishments e join branches b on b.id = e.branch_id where e.covered`);
    expect(covered.map((r) => r.name)).toEqual(['Batangas Terminal']);
    const uses =
      await rows(`select p.state, p.number_from::text "from", p.number_to::text "to", p.series_role role, o.cause, o.ends_at::text ended
      from paper_uses p left join outages o on o.id = p.outage_id order by p.number_from`);
    expect(uses.map((u) => [u.state, u.role])).toEqual([
      ['linked', 'contingency'],
      ['open', 'contingency'],
    ]);
    expect(Number(uses[0].to) - Number(uses[0].from)).toBe(2);
    expect(uses[0].cause).toBe('power');
    expect(uses[0].ended).not.toBeNull();
  });
});
