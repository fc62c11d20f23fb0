import type { FastifyInstance } from 'fastify';
import { PAD_STATUS, ROLE, USER_STATUS } from '../../shared/lookups.ts';
import type { AppContext } from '../context.ts';
import { insertUser } from '../features/accounts/repo.ts';
import { dayText } from '../../shared/format.ts';
import { businessDate } from '../features/ledger/lifecycle.ts';
import { encodeBadge } from '../lib/badge.ts';
import { badgeVersion } from '../features/users/read-model.ts';
import { hashPassword } from '../lib/passwords.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';
import { type Created, DemoApi } from './api.ts';
import { type DemoStep, moveStepToItsDay } from './timeline-repo.ts';

/** What the administrator gives each demo account; its first sign-in replaces it with DEMO_PASSWORD, as every first sign-in must. */
const FIRST_DEMO_PASSWORD = 'DemoFirst@2026';

/** What the organisation scene sets up and every later scene works with. */
export interface DemoWorld {
  ctx: AppContext;
  /** User id by role id. */
  ids: Record<number, number>;
  branches: Record<string, number>;
  routes: { batangasCalapan: number; manilaIloilo: number; cebuTagbilaran: number };
  custodian: DemoApi;
  branchHead: DemoApi;
  supervisor: DemoApi;
  ticketing: DemoApi;
  accounting: DemoApi;
  driver: DemoApi;
  /** Issues accepted by their requester, in order: the accounting report covers all but the last. */
  completed: number[];
  /** The dated step under way, whose writes move to its day when the next one begins. */
  step: DemoStep | null;
}

/** The pads the completed issues put in people's hands, which later scenes use, return, turn over or lose. */
export interface HeldPads {
  usedPad: number;
  returnedPad: number;
  turnedPad: number;
  supervisorPad: number;
}

/** What the turnover on the road carries: its id and the pad its courier loses on the way. */
export interface OnTheRoad {
  turnover: number;
  lostPad: number;
}

type HeldPad = {
  id: number;
  number: number;
  pad_status_id: number;
  issuance_status_id: number;
  series: Array<{ number: number; status: number }>;
};

/**
 * Two months ago the pads are generated and the first ones issued; last month they move (the RAAF of that month has
 * a beginning, receipts, uses, transfers, a lost pad and an ending). The ledger records those movements on the
 * dates the scenes set here (ctx.ledgerClock), and the invoices, their history and the pads written in a step move
 * to the same day (one timeline); everything after them is recorded now.
 */
async function on(w: DemoWorld, monthsBack: number, dayOfMonth: number): Promise<void> {
  await endStep(w);
  const when = demoDay(w.ctx, monthsBack, dayOfMonth);
  const since = new Date();
  const zone = w.ctx.config.timeZone;
  const days = (Date.parse(businessDate(when, zone)) - Date.parse(businessDate(since, zone))) / 86_400_000;
  w.step = { since, to: when, days };
  w.ctx.ledgerClock = () => when;
}

/** Ends the dated step under way: what it wrote moves to its day, and the ledger records at the real time again. */
export async function endStep(w: DemoWorld): Promise<void> {
  if (w.step) await moveStepToItsDay(w.ctx.db, w.step);
  w.step = null;
  w.ctx.ledgerClock = undefined;
}

export function demoDay(ctx: AppContext, monthsBack: number, dayOfMonth: number): Date {
  const [year, month] = businessDate(new Date(), ctx.config.timeZone).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1 - monthsBack, dayOfMonth, 2, 0, 0));
}

async function available(w: DemoWorld, routeId: number, n: number): Promise<number[]> {
  const page = await w.custodian.call<{ data: Array<{ id: number }> }>('GET', 'available-pads', undefined, {
    route_id: String(routeId),
    per_page: String(n),
  });
  return page.data.slice(0, n).map((p) => p.id);
}

async function request(w: DemoWorld, who: DemoApi, routeId: number, pads: number): Promise<number> {
  return (
    await who.call<Created>('POST', 'create-request-invoice', { branch_id: w.ctx.config.headOfficeBranchId, route_id: routeId, pads })
  ).data.id;
}

async function issue(
  w: DemoWorld,
  requestId: number,
  routeId: number,
  requesterId: number,
  pads: number[],
  courierId: number,
  days: number,
): Promise<number> {
  const body = {
    invoice_id: requestId,
    branch_id: w.ctx.config.headOfficeBranchId,
    route_id: routeId,
    pads,
    assigned_user_id: courierId,
    expected_return: days,
    user_id: requesterId,
  };
  return (await w.custodian.call<Created>('POST', 'issue-invoice', body)).data.id;
}

async function issueAccepted(w: DemoWorld, who: DemoApi, requesterRole: number, routeId: number, count: number): Promise<number[]> {
  const pads = await available(w, routeId, count);
  const issuedId = await issue(w, await request(w, who, routeId, count), routeId, w.ids[requesterRole], pads, w.ids[ROLE.DRIVER], 14);
  await who.call('POST', `accept-invoice/${issuedId}`);
  w.completed.push(issuedId);
  return pads;
}

async function markUsed(
  who: DemoApi,
  padId: number,
  usedCount: number,
  changes: { remarks?: string; pad_status_id?: number } = {},
): Promise<void> {
  const pad = (await who.call<{ data: HeldPad }>('GET', `get-pad/${padId}`)).data;
  await who.call('PUT', `update-pad/${padId}`, {
    pad_status_id: changes.pad_status_id ?? pad.pad_status_id,
    issuance_status_id: pad.issuance_status_id,
    remarks: changes.remarks ?? null,
    series: pad.series.map((entry, i) => ({ ...entry, status: i < usedCount ? 2 : 1 })),
  });
}

async function adminUserId(admin: DemoApi): Promise<number> {
  return (await admin.call<{ data: { id: number } }>('GET', 'user-profile')).data.id;
}

/** Ports, an operator, an agency and a partner, their branches and routes, and one signed-in account per role. */
// eslint-disable-next-line max-lines-per-function -- one scene reads top to bottom as the story it stages, each step in order.
export async function organisation(app: FastifyInstance, ctx: AppContext): Promise<DemoWorld> {
  await insertUser(ctx.db, {
    first_name: DEMO_ACCOUNTS[0].first_name,
    last_name: DEMO_ACCOUNTS[0].last_name,
    email: DEMO_ACCOUNTS[0].email,
    contact_number: '0917-555-0101',
    password_hash: await hashPassword(DEMO_PASSWORD),
    role_id: ROLE.ADMIN,
    user_status_id: USER_STATUS.ACTIVE,
    is_demo: 1,
  });
  const admin = await DemoApi.as(app, DEMO_ACCOUNTS[0].email);

  const location = async (name: string) => (await admin.call<Created>('POST', 'add-location', { name })).data.id;
  const company = async (name: string, company_type_id: number) =>
    (await admin.call<Created>('POST', 'add-company', { name, company_type_id })).data.id;
  const ports = {
    manila: await location('Manila North Harbor'),
    batangas: await location('Batangas Port'),
    calapan: await location('Calapan Pier'),
    iloilo: await location('Iloilo Port'),
    cebu: await location('Cebu Pier 1'),
  };
  const operator = await company('Ocean Fast Ferries Inc.', 1);
  const agency = await company('Starlite Travel & Tours', 2);
  const partner = await company('Island Hopper Partners', 3);
  const branch = async (name: string, company_id: number, location_id: number) =>
    (await admin.call<Created>('POST', 'add-branch', { name, company_id, location_id })).data.id;
  const branches: Record<string, number> = {};
  branches['Head Office'] = await branch('Head Office', operator, ports.manila);
  branches['Batangas Terminal'] = await branch('Batangas Terminal', operator, ports.batangas);
  branches['Calapan Terminal'] = await branch('Calapan Terminal', operator, ports.calapan);
  branches['Iloilo Agency'] = await branch('Iloilo Agency', agency, ports.iloilo);
  branches['Cebu Partner Desk'] = await branch('Cebu Partner Desk', partner, ports.cebu);
  if (branches['Head Office'] !== ctx.config.headOfficeBranchId) {
    throw new Error(
      `The head office was created as branch ${branches['Head Office']}, but HEAD_OFFICE_BRANCH_ID is ${ctx.config.headOfficeBranchId}.`,
    );
  }
  await admin.call('PUT', `update-user/${await adminUserId(admin)}`, {
    first_name: DEMO_ACCOUNTS[0].first_name,
    last_name: DEMO_ACCOUNTS[0].last_name,
    email: DEMO_ACCOUNTS[0].email,
    contact_number: '0917-555-0101',
    role_id: ROLE.ADMIN,
    branch_id: branches['Head Office'],
    user_status_id: USER_STATUS.ACTIVE,
  });

  const route = async (name: string, tin: string, company_id: number) =>
    (await admin.call<Created>('POST', 'add-route', { name, tin, company_id })).data.id;
  const routes = {
    batangasCalapan: await route('Batangas - Calapan', '004-512-889-000', operator),
    manilaIloilo: await route('Manila - Iloilo', '004-512-889-001', operator),
    cebuTagbilaran: await route('Cebu - Tagbilaran', '215-330-104-000', partner),
  };

  const ids: Record<number, number> = { [ROLE.ADMIN]: await adminUserId(admin) };
  for (const account of DEMO_ACCOUNTS.slice(1)) {
    const created = await admin.call<Created>('POST', 'add-user', {
      first_name: account.first_name,
      last_name: account.last_name,
      email: account.email,
      contact_number: `0917-555-01${String(account.role_id).padStart(2, '0')}`,
      password: FIRST_DEMO_PASSWORD,
      role_id: account.role_id,
      branch_id: branches[account.branch],
      user_status_id: USER_STATUS.ACTIVE,
    });
    await DemoApi.replaceFirstPassword(app, account.email, FIRST_DEMO_PASSWORD);
    ids[account.role_id] = created.data.id;
  }
  const as = (roleId: number) => DemoApi.as(app, DEMO_ACCOUNTS[roleId - 1].email);
  return {
    ctx,
    ids,
    branches,
    routes,
    custodian: await as(ROLE.CUSTODIAN),
    branchHead: await as(ROLE.BRANCH_HEAD),
    supervisor: await as(ROLE.SUPERVISOR),
    ticketing: await as(ROLE.TICKETING_OFFICER),
    accounting: await as(ROLE.ACCOUNTING),
    driver: await as(ROLE.DRIVER),
    completed: [],
    step: null,
  };
}

/**
 * Two months ago accounting registers the Batangas Terminal's own Manila - Iloilo booklets (the first two pads, which
 * ticketing receives) under their printer's authority (ATP), and the custodian generates 50,000 numbers on each route.
 */
export async function pads(w: DemoWorld): Promise<void> {
  await on(w, 2, 20);
  await w.accounting.call('POST', 'registered-series', {
    route_id: w.routes.manilaIloilo,
    branch_id: w.branches['Batangas Terminal'],
    form_type: 'invoice',
    atp_number: '0412AU20260000119',
    atp_date: businessDate(demoDay(w.ctx, 3, 5), w.ctx.config.timeZone),
    printer: 'Pier Printers Inc.',
    series_from: 2500001,
    series_to: 2500100,
  });
  await w.custodian.call('POST', 'add-pad', {
    route_id: w.routes.batangasCalapan,
    series_from: 100001,
    series_to: 150000,
    user_id: w.ids[ROLE.CUSTODIAN],
  });
  await w.custodian.call('POST', 'add-pad', {
    route_id: w.routes.manilaIloilo,
    series_from: 2500001,
    series_to: 2550000,
    user_id: w.ids[ROLE.CUSTODIAN],
  });
  await w.custodian.call('POST', 'add-pad', {
    route_id: w.routes.cebuTagbilaran,
    series_from: 1000000001,
    series_to: 1000050000,
    user_id: w.ids[ROLE.CUSTODIAN],
  });
}

/** Requests issued and accepted by the Batangas branch head, the Calapan supervisor and ticketing; the first pad in use. */
export async function completedIssues(w: DemoWorld): Promise<HeldPads> {
  await on(w, 2, 22);
  const [usedPad, returnedPad, turnedPad] = await issueAccepted(w, w.branchHead, ROLE.BRANCH_HEAD, w.routes.batangasCalapan, 3);
  const [supervisorPad] = await issueAccepted(w, w.supervisor, ROLE.SUPERVISOR, w.routes.batangasCalapan, 2);
  await on(w, 2, 26);
  await markUsed(w.branchHead, usedPad, 10);
  await on(w, 1, 3);
  await issueAccepted(w, w.ticketing, ROLE.TICKETING_OFFICER, w.routes.manilaIloilo, 2);
  await on(w, 1, 5);
  await markUsed(w.branchHead, usedPad, 18, { remarks: 'Used for the 06:00 and 08:30 trips' });
  return { usedPad, returnedPad, turnedPad, supervisorPad };
}

/** Last month the branch head returns an unused pad to accounting, who accepts it. */
export async function returns(w: DemoWorld, held: HeldPads): Promise<void> {
  await on(w, 1, 10);
  const returned = (
    await w.branchHead.call<Created>('POST', 'create-return-invoice', { pads: [held.returnedPad], assigned_user_id: w.ids[ROLE.MESSENGER] })
  ).data.id;
  await w.accounting.call('POST', `accept-invoice/${returned}`);
}

/** Last month Batangas turns a pad over to Calapan, whose supervisor accepts it. */
export async function turnovers(w: DemoWorld, held: HeldPads): Promise<void> {
  await on(w, 1, 14);
  const body = { pads: [held.turnedPad], branch_id: w.branches['Calapan Terminal'], assigned_user_id: w.ids[ROLE.DRIVER] };
  const turnover = (await w.branchHead.call<Created>('POST', 'create-turnover-invoice', body)).data.id;
  await w.supervisor.call('POST', `accept-invoice/${turnover}`);
}

/** Late last month a newly issued pad is lost overboard and the Calapan supervisor records the morning trips. */
export async function lossAndUse(w: DemoWorld, held: HeldPads): Promise<void> {
  await on(w, 1, 17);
  const [lostPad] = await issueAccepted(w, w.branchHead, ROLE.BRANCH_HEAD, w.routes.batangasCalapan, 2);
  await on(w, 1, 20);
  await markUsed(w.branchHead, lostPad, 0, { pad_status_id: PAD_STATUS.LOST, remarks: 'Lost overboard on the 14:00 trip' });
  await on(w, 1, 24);
  await markUsed(w.supervisor, held.supervisorPad, 12, { remarks: 'Calapan morning trips' });
}

/**
 * This month, still under way: the branch head sends the used pad back; Batangas turns two pads over to Calapan, handed
 * over on the way (the messenger then loses one of them, lostOnTheWay); an issue for Cebu travels with the driver.
 */
export async function onTheRoad(w: DemoWorld, held: HeldPads): Promise<OnTheRoad> {
  await w.branchHead.call('POST', 'create-return-invoice', { pads: [held.usedPad], assigned_user_id: w.ids[ROLE.MESSENGER] });
  const ticketHeld = await w.ticketing.call<{ data: Array<{ id: number }> }>('GET', 'get-user-pads');
  const carried = ticketHeld.data.slice(0, 2).map((pad) => pad.id);
  const body = { pads: carried, branch_id: w.branches['Calapan Terminal'], assigned_user_id: w.ids[ROLE.DRIVER] };
  const turnover = (await w.ticketing.call<Created>('POST', 'create-turnover-invoice', body)).data.id;
  /* The driver scans the messenger's badge on the way (docs/design.md §5): the badge as it stands after his first password change. */
  const badge = encodeBadge(w.ctx.badgeSecret, w.ids[ROLE.MESSENGER], (await badgeVersion(w.ctx.db, w.ids[ROLE.MESSENGER])) ?? 1);
  await w.driver.call('POST', `hand-over-invoice/${turnover}`, { assigned_user_id: w.ids[ROLE.MESSENGER], badge });
  const travelling = await request(w, w.supervisor, w.routes.cebuTagbilaran, 4);
  await issue(
    w,
    travelling,
    w.routes.cebuTagbilaran,
    w.ids[ROLE.SUPERVISOR],
    await available(w, w.routes.cebuTagbilaran, 4),
    w.ids[ROLE.DRIVER],
    7,
  );
  return { turnover, lostPad: carried[carried.length - 1] };
}

/** Requests still waiting for the custodian. */
export async function requests(w: DemoWorld): Promise<void> {
  await request(w, w.branchHead, w.routes.batangasCalapan, 5);
  await request(w, w.ticketing, w.routes.manilaIloilo, 2);
}

/**
 * Accounting reconciles the completed issues up to early last month in a report whose remarks name their span; the latest
 * one is left for the demo's accounting user to report.
 */
export async function report(w: DemoWorld): Promise<void> {
  const zone = w.ctx.config.timeZone;
  const span = `${dayText(demoDay(w.ctx, 2, 22), zone)} to ${dayText(demoDay(w.ctx, 1, 3), zone)}`;
  await w.accounting.call('POST', 'reports', {
    invoice_ids: w.completed.slice(0, -1),
    remarks: `Reconciliation of the pads issued and accepted ${span}: Batangas - Calapan and Manila - Iloilo`,
    data: '',
  });
}

/** The Batangas branch head certifies last month's RAAF and accounting reviews it; the others have not certified yet. */
export async function raafCertificate(w: DemoWorld): Promise<void> {
  const lastMonth = businessDate(demoDay(w.ctx, 1, 15), w.ctx.config.timeZone).slice(0, 7);
  const certificate = await w.branchHead.call<Created>('POST', 'raaf/certify', { month: lastMonth, user_id: w.ids[ROLE.BRANCH_HEAD] });
  await w.accounting.call('POST', `raaf/${certificate.data.id}/review`);
}
