import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PAD_STATUS, ROLE, USER_STATUS } from '../src/shared/lookups.ts';
import type { AppContext } from '../src/server/context.ts';
import { companies, settings, users } from '../src/server/db/schema.ts';
import { insertUser } from '../src/server/features/accounts/repo.ts';
import { businessDate } from '../src/server/features/ledger/writer.ts';
import { hashPassword } from '../src/server/lib/passwords.ts';

export const DEMO_PASSWORD = 'Demo@2026';

/** One account per role; the README lists them. */
export const DEMO_ACCOUNTS = [
  { role_id: 1, email: 'admin@padtrack-demo.ph', first_name: 'Andrea', last_name: 'Villanueva', branch: 'Head Office' },
  { role_id: 2, email: 'itadmin@padtrack-demo.ph', first_name: 'Marco', last_name: 'Dizon', branch: 'Head Office' },
  { role_id: 3, email: 'custodian@padtrack-demo.ph', first_name: 'Liza', last_name: 'Fernandez', branch: 'Head Office' },
  { role_id: 4, email: 'branchcustodian@padtrack-demo.ph', first_name: 'Ramon', last_name: 'Aquino', branch: 'Calapan Terminal' },
  { role_id: 5, email: 'branchhead@padtrack-demo.ph', first_name: 'Grace', last_name: 'Mendoza', branch: 'Batangas Terminal' },
  { role_id: 6, email: 'supervisor@padtrack-demo.ph', first_name: 'Paolo', last_name: 'Santiago', branch: 'Calapan Terminal' },
  { role_id: 7, email: 'ticketing@padtrack-demo.ph', first_name: 'Joy', last_name: 'Castillo', branch: 'Batangas Terminal' },
  { role_id: 8, email: 'accounting@padtrack-demo.ph', first_name: 'Teresa', last_name: 'Lim', branch: 'Head Office' },
  { role_id: 9, email: 'auditor@padtrack-demo.ph', first_name: 'Victor', last_name: 'Ramos', branch: 'Head Office' },
  { role_id: 10, email: 'driver@padtrack-demo.ph', first_name: 'Nestor', last_name: 'Bautista', branch: 'Batangas Terminal' },
  { role_id: 11, email: 'messenger@padtrack-demo.ph', first_name: 'Carlo', last_name: 'Reyes', branch: 'Head Office' },
] as const;

const DEMO_MARKER = 'demo_loaded';

type Json = Record<string, unknown>;

class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
  ) {}

  static async as(app: FastifyInstance, email: string): Promise<DemoApi> {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: DEMO_PASSWORD } });
    if (res.statusCode !== 200) throw new Error(`demo login ${email}: ${res.body}`);
    return new DemoApi(app, (res.json() as { token: string }).token);
  }

  async call<T = Json>(method: 'GET' | 'POST' | 'PUT', path: string, payload?: Json, query?: Record<string, string>): Promise<T> {
    const res = await this.app.inject({ method, url: `/api/${path}`, payload, query, headers: { authorization: `Bearer ${this.token}` } });
    if (res.statusCode >= 400) throw new Error(`demo ${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  }
}

type Created = { data: { id: number } };

/**
 * Loads a believable operator's data through the HTTP API (the same services, rules and
 * transactions staff use), so the demo shows only states the app itself can reach.
 */
export async function loadDemo(app: FastifyInstance, ctx: AppContext, options: { force?: boolean } = {}): Promise<'loaded' | 'already'> {
  const [marker] = await ctx.db.select().from(settings).where(eq(settings.key, DEMO_MARKER));
  if (marker) return 'already';
  const [{ value: userCount }] = await ctx.db.select({ value: count() }).from(users);
  const [{ value: companyCount }] = await ctx.db.select({ value: count() }).from(companies);
  if ((userCount > 1 || companyCount > 0) && !options.force) {
    throw new Error('This database already holds data that is not demo data. Use --force to add the demo data anyway.');
  }

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
  const company = async (name: string, company_type_id: number) => (await admin.call<Created>('POST', 'add-company', { name, company_type_id })).data.id;
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
    throw new Error(`The head office was created as branch ${branches['Head Office']}, but HEAD_OFFICE_BRANCH_ID is ${ctx.config.headOfficeBranchId}.`);
  }
  await admin.call('PUT', `update-user/${(await adminUserId(admin))}`, {
    first_name: DEMO_ACCOUNTS[0].first_name,
    last_name: DEMO_ACCOUNTS[0].last_name,
    email: DEMO_ACCOUNTS[0].email,
    contact_number: '0917-555-0101',
    role_id: ROLE.ADMIN,
    branch_id: branches['Head Office'],
    user_status_id: USER_STATUS.ACTIVE,
  });

  const route = async (name: string, tin: string, company_id: number) => (await admin.call<Created>('POST', 'add-route', { name, tin, company_id })).data.id;
  const routes = {
    batangasCalapan: await route('Batangas - Calapan', '004-512-889-000', operator),
    manilaIloilo: await route('Manila - Iloilo', '004-512-889-001', operator),
    cebuTagbilaran: await route('Cebu - Tagbilaran', '215-330-104-000', partner),
  };

  const ids: Record<number, number> = { 1: await adminUserId(admin) };
  for (const account of DEMO_ACCOUNTS.slice(1)) {
    const created = await admin.call<Created>('POST', 'add-user', {
      first_name: account.first_name,
      last_name: account.last_name,
      email: account.email,
      contact_number: `0917-555-01${String(account.role_id).padStart(2, '0')}`,
      password: DEMO_PASSWORD,
      role_id: account.role_id,
      branch_id: branches[account.branch],
      user_status_id: USER_STATUS.ACTIVE,
    });
    ids[account.role_id] = created.data.id;
  }
  const as = (roleId: number) => DemoApi.as(app, DEMO_ACCOUNTS[roleId - 1].email);
  const custodian = await as(3);
  const branchHead = await as(5);
  const supervisor = await as(6);
  const ticketing = await as(7);
  const accounting = await as(8);
  const driver = await as(10);

  // Two months ago the pads are generated and the first ones issued; last month they move (the RAAF of
  // that month has a beginning, receipts, uses, transfers, a lost pad and an ending). The ledger records
  // those movements on the dates below (ctx.ledgerClock); everything after them is recorded now.
  const day = (monthsBack: number, dayOfMonth: number) => {
    const [year, month] = businessDate(new Date(), ctx.config.timeZone).split('-').map(Number);
    return new Date(Date.UTC(year, month - 1 - monthsBack, dayOfMonth, 2, 0, 0));
  };
  const on = (when: Date) => {
    ctx.ledgerClock = () => when;
  };
  const available = async (routeId: number, n: number) => {
    const page = await custodian.call<{ data: Array<{ id: number }> }>('GET', 'available-pads', undefined, { route_id: String(routeId), per_page: String(n) });
    return page.data.slice(0, n).map((p) => p.id);
  };
  const request = async (who: DemoApi, routeId: number, pads: number) =>
    (await who.call<Created>('POST', 'create-request-invoice', { branch_id: ctx.config.headOfficeBranchId, route_id: routeId, pads })).data.id;
  const issue = async (requestId: number, routeId: number, requesterId: number, pads: number[], courierId: number, days: number) =>
    (
      await custodian.call<Created>('POST', 'issue-invoice', {
        invoice_id: requestId,
        branch_id: ctx.config.headOfficeBranchId,
        route_id: routeId,
        pads,
        assigned_user_id: courierId,
        expected_return: days,
        user_id: requesterId,
      })
    ).data.id;
  const completed: number[] = [];
  const issueAccepted = async (who: DemoApi, requesterRole: number, routeId: number, count: number) => {
    const pads = await available(routeId, count);
    const issuedId = await issue(await request(who, routeId, count), routeId, ids[requesterRole], pads, ids[10], 14);
    await who.call('POST', `accept-invoice/${issuedId}`);
    completed.push(issuedId);
    return pads;
  };
  type HeldPad = { id: number; number: number; pad_status_id: number; issuance_status_id: number; series: Array<{ number: number; status: number }> };
  const markUsed = async (who: DemoApi, padId: number, usedCount: number, changes: { remarks?: string; pad_status_id?: number } = {}) => {
    const pad = (await who.call<{ data: HeldPad }>('GET', `get-pad/${padId}`)).data;
    await who.call('PUT', `update-pad/${padId}`, {
      pad_status_id: changes.pad_status_id ?? pad.pad_status_id,
      issuance_status_id: pad.issuance_status_id,
      remarks: changes.remarks ?? null,
      series: pad.series.map((entry, i) => ({ ...entry, status: i < usedCount ? 2 : 1 })),
    });
  };

  let usedPad: number;
  try {
    on(day(2, 20));
    await custodian.call('POST', 'add-pad', { route_id: routes.batangasCalapan, series_from: 100001, series_to: 150000, user_id: ids[3] });
    await custodian.call('POST', 'add-pad', { route_id: routes.manilaIloilo, series_from: 2500001, series_to: 2550000, user_id: ids[3] });
    await custodian.call('POST', 'add-pad', { route_id: routes.cebuTagbilaran, series_from: 1000000001, series_to: 1000050000, user_id: ids[3] });
    on(day(2, 22));
    const [first, returnedPad, turnedPad] = await issueAccepted(branchHead, 5, routes.batangasCalapan, 3);
    const [supervisorPad] = await issueAccepted(supervisor, 6, routes.batangasCalapan, 2);
    usedPad = first;
    on(day(2, 26));
    await markUsed(branchHead, usedPad, 10);

    on(day(1, 3));
    await issueAccepted(ticketing, 7, routes.manilaIloilo, 2);
    on(day(1, 5));
    await markUsed(branchHead, usedPad, 18, { remarks: 'Used for the 06:00 and 08:30 trips' });
    on(day(1, 10));
    const returned = (await branchHead.call<Created>('POST', 'create-return-invoice', { pads: [returnedPad], assigned_user_id: ids[11] })).data.id;
    await accounting.call('POST', `accept-invoice/${returned}`);
    on(day(1, 14));
    const turnover = (await branchHead.call<Created>('POST', 'create-turnover-invoice', { pads: [turnedPad], branch_id: branches['Calapan Terminal'], assigned_user_id: ids[10] })).data.id;
    await supervisor.call('POST', `accept-invoice/${turnover}`);
    on(day(1, 17));
    const [lostPad] = await issueAccepted(branchHead, 5, routes.batangasCalapan, 2);
    on(day(1, 20));
    await markUsed(branchHead, lostPad, 0, { pad_status_id: PAD_STATUS.LOST, remarks: 'Lost overboard on the 14:00 trip' });
    on(day(1, 24));
    await markUsed(supervisor, supervisorPad, 12, { remarks: 'Calapan morning trips' });
  } finally {
    ctx.ledgerClock = undefined;
  }

  // This month: the branch head sends the used pad back (still on the road), Batangas turns a pad over to Calapan, handed over on the way.
  await branchHead.call('POST', 'create-return-invoice', { pads: [usedPad], assigned_user_id: ids[11] });
  const ticketHeld = await ticketing.call<{ data: Array<{ id: number }> }>('GET', 'get-user-pads');
  const onTheRoad = (
    await ticketing.call<Created>('POST', 'create-turnover-invoice', { pads: [ticketHeld.data[0].id], branch_id: branches['Calapan Terminal'], assigned_user_id: ids[10] })
  ).data.id;
  await driver.call('POST', `hand-over-invoice/${onTheRoad}`, { assigned_user_id: ids[11] });

  // Issued and still travelling, carried by the driver; and requests still waiting.
  const travelling = await request(supervisor, routes.cebuTagbilaran, 4);
  await issue(travelling, routes.cebuTagbilaran, ids[6], await available(routes.cebuTagbilaran, 4), ids[10], 7);
  await request(branchHead, routes.batangasCalapan, 5);
  await request(ticketing, routes.manilaIloilo, 2);

  await accounting.call('POST', 'reports', { invoice_ids: completed.slice(0, 2), remarks: 'Weekly reconciliation, Batangas - Calapan', data: '' });

  // The Batangas branch head certifies last month's RAAF and accounting reviews it; the others have not certified yet.
  const lastMonth = businessDate(day(1, 15), ctx.config.timeZone).slice(0, 7);
  const certificate = await branchHead.call<Created>('POST', 'raaf/certify', { month: lastMonth, user_id: ids[5] });
  await accounting.call('POST', `raaf/${certificate.data.id}/review`);

  await ctx.db.insert(settings).values({ key: DEMO_MARKER, value: new Date().toISOString() });
  return 'loaded';
}

async function adminUserId(admin: DemoApi): Promise<number> {
  return (await admin.call<{ data: { id: number } }>('GET', 'user-profile')).data.id;
}
