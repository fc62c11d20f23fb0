import type { FastifyInstance } from 'fastify';
import { ROLE } from '../../shared/lookups.ts';
import { AFFIDAVIT_TO_FOLLOW } from '../../shared/schemas/incidents.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { type Created, DemoApi } from './api.ts';
import type { DemoWorld, OnTheRoad } from './scenes.ts';

const as = (app: FastifyInstance, roleId: number) => DemoApi.as(app, DEMO_ACCOUNTS[roleId - 1].email);

/**
 * This morning the messenger carrying the Turnover to Calapan loses one of its pads at the pier and reports it; accounting
 * confirms the loss before the affidavit is notarised. The Notice of Loss names the Turnover, and the Turnover carries on
 * with the other pad, which Calapan can still accept.
 */
export async function lostOnTheWay(app: FastifyInstance, w: DemoWorld, road: OnTheRoad): Promise<void> {
  const messenger = await as(app, ROLE.MESSENGER);
  const reported = await messenger.call<Created>('POST', 'loss-incidents', {
    pads: [{ pad_id: road.lostPad }],
    place: 'Batangas Port, passenger terminal gate 3',
    occurred_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    circumstances: `The envelope with the pad of Turnover #${road.turnover} was left on the terminal shuttle and was not found when the shuttle came back.`,
  });
  await w.accounting.call('POST', `loss-incidents/${reported.data.id}/confirm`, { no_affidavit_reason: AFFIDAVIT_TO_FOLLOW });
}

type CountItem = { pad: { id: number; series_to: number }; book_next_number: number | null };
type Variance = { id: number; kind: string };

/**
 * The custodian counts the Calapan Terminal's pads: one booklet has three receipts issued that the books do not show, and
 * the custodian records their usage. The branch custodian signs off and the count is closed with its certificate.
 */
export async function branchCount(app: FastifyInstance, w: DemoWorld, supervisorPad: number): Promise<void> {
  const count = await w.custodian.call<{ data: { id: number; items: CountItem[] } }>('POST', 'counts', {
    branch_id: w.branches['Calapan Terminal'],
  });
  const id = count.data.id;
  for (const item of count.data.items) {
    const books = item.book_next_number ?? item.pad.series_to + 1;
    const seen = item.pad.id === supervisorPad ? books + 3 : books;
    await w.custodian.call('POST', `counts/${id}/items`, { pad_id: item.pad.id, first_unused: seen });
  }
  const variances = await w.custodian.call<{ data: Variance[] }>('GET', `counts/${id}/variances`);
  for (const variance of variances.data) {
    await w.custodian.call('POST', `counts/${id}/variances/${variance.id}/resolve`, {
      action: 'usage',
      reason: 'Stubs found in the cash box: issued on the last trip, not yet recorded',
    });
  }
  const branchCustodian = await as(app, ROLE.BRANCH_CUSTODIAN);
  await branchCustodian.call('POST', `counts/${id}/sign-off`, {});
  await w.custodian.call('POST', `counts/${id}/close`);
}
