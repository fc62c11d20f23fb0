import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import { acceptQuestion } from '../../../shared/schemas/custodies.ts';
import type { MyActionGroup, MyActions } from '../../../shared/schemas/my-actions.ts';
import { padCustody } from '../../db/schema/pads.ts';
import {
  buildInvoice,
  buildIssuedInvoice,
  buildPad,
  createBranch,
  createLocation,
  createRoute,
  createUser,
  loginAs,
  signedIn,
  type InvoiceRecord,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let headOffice: Awaited<ReturnType<typeof createBranch>>;

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;

async function myActions(headers: Headers): Promise<MyActions> {
  const res = await t.app.inject({ method: 'GET', url: '/api/my-actions', headers });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

const group = (answer: MyActions, kind: MyActionGroup['kind']) => answer.groups.find((g) => g.kind === kind);
/** What waits on invoices: the counters' "count due" group (docs/design.md §9) is asserted in the counts tests. */
const invoiceWork = (answer: MyActions) => answer.groups.filter((g) => g.kind !== 'count_due').reduce((sum, g) => sum + g.count, 0);

describe('GET /api/my-actions', () => {
  it('when nobody is signed in, then it answers 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/my-actions' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('when each role asks, then it gets only the groups its role can act on', async () => {
    const expected: Array<[number | null, string[]]> = [
      [1, ['issue', 'accept', 'carry', 'overdue']],
      [2, ['accept', 'carry', 'overdue']],
      [3, ['issue', 'accept', 'carry', 'overdue']],
      [4, ['accept', 'carry', 'overdue']],
      [5, ['accept', 'carry', 'overdue']],
      [6, ['accept', 'carry', 'overdue']],
      [7, ['accept', 'carry', 'overdue']],
      [8, ['accept', 'carry', 'overdue']],
      [9, ['accept', 'carry', 'overdue']],
      [10, ['carry']],
      [11, ['carry']],
      [null, []],
    ];
    for (const [role_id, kinds] of expected) {
      const { headers } = await signedIn(t, { role_id, branch_id: headOffice.id });
      const answer = await myActions(headers);
      expect(
        answer.groups.map((g) => g.kind),
        `role ${role_id}`,
      ).toEqual(kinds);
    }
  });

  it('when requests are pending, then roles 1 and 3 see their count and the newest five, each linking to its details', async () => {
    const custodian = await signedIn(t, { role_id: 3, branch_id: headOffice.id });
    const before = group(await myActions(custodian.headers), 'issue')?.count ?? 0;
    const requester = await createUser(t.db, { role_id: 5, branch_id: headOffice.id });
    const made = [];
    for (let i = 0; i < 6; i += 1)
      made.push(await buildInvoice(t.db, { user_id: requester.id, pad_count: 3, created_at: new Date(Date.now() + i * 1000) }));
    await buildInvoice(t.db, { user_id: requester.id, status: INVOICE_STATUS.ISSUED });

    const issue = group(await myActions(custodian.headers), 'issue');
    expect(issue).toMatchObject({
      title: 'Requests to issue',
      count: before + 6,
      menu_path: '/invoices',
      list_path: '/invoices?invoiceType=1&invoiceStatus=1',
    });
    expect(issue?.items).toHaveLength(5);
    const newest = made[5];
    expect(issue?.items[0]).toEqual({
      id: newest.id,
      label: expect.stringContaining(`Request #${newest.id} with 3 pads`),
      path: `/invoices?invoice=${newest.id}`,
    });
    const admin = await signedIn(t, { role_id: 1 });
    expect(group(await myActions(admin.headers), 'issue')?.count).toBe(before + 6);
  });

  it('when an issued invoice is on its way, then its requester sees it to accept, its courier sees it carried, and accepting it clears both', async () => {
    const { invoice, requester, courier } = await buildIssuedInvoice(t.db, { status: INVOICE_STATUS.IN_TRANSIT, padCount: 2 });
    const receiver = await loginAs(t, requester.email);
    const carrier = await loginAs(t, courier.email);
    const bystander = await signedIn(t, { role_id: 5, branch_id: requester.branch_id });

    const toAccept = group(await myActions(receiver.headers), 'accept');
    expect(toAccept).toMatchObject({ title: 'Invoices to accept', count: 1, menu_path: '/invoices' });
    expect(toAccept?.items).toEqual([
      { id: invoice.id, label: expect.stringContaining(`Issued #${invoice.id} with 2 pads`), path: `/invoices?invoice=${invoice.id}` },
    ]);
    const carried = await myActions(carrier.headers);
    expect(carried.total).toBe(1);
    expect(group(carried, 'carry')).toMatchObject({
      count: 1,
      menu_path: '/custodies',
      items: [{ id: invoice.id, path: `/custodies?custody=${invoice.id}` }],
    });
    expect(invoiceWork(await myActions(bystander.headers))).toBe(0);

    const accepted = await t.app.inject({ method: 'POST', url: `/api/accept-invoice/${invoice.id}`, headers: receiver.headers });
    expect(accepted.statusCode).toBe(200);
    expect(group(await myActions(receiver.headers), 'accept')?.count).toBe(0);
    expect((await myActions(carrier.headers)).total).toBe(0);
  });

  it('when returns and turnovers are in transit, then Accounting sees the returns and roles 4 to 7 of the destination branch the turnovers', async () => {
    const agency = await createBranch(t.db, { name: 'Calapan Agency' });
    const elsewhere = await createBranch(t.db, { name: 'Batangas Agency' });
    const holder = await createUser(t.db, { role_id: 5, branch_id: elsewhere.id });
    const returned = await buildInvoice(t.db, {
      user_id: holder.id,
      type: INVOICE_TYPE.RETURN,
      status: INVOICE_STATUS.IN_TRANSIT,
      from_branch_id: elsewhere.id,
      branch_id: headOffice.id,
    });
    const turned = await buildInvoice(t.db, {
      user_id: holder.id,
      type: INVOICE_TYPE.TURNOVER,
      status: INVOICE_STATUS.IN_TRANSIT,
      from_branch_id: elsewhere.id,
      branch_id: agency.id,
    });

    const accounting = await signedIn(t, { role_id: 8, branch_id: headOffice.id });
    const returns = group(await myActions(accounting.headers), 'accept');
    expect(returns?.items.map((i) => i.id)).toContain(returned.id);
    expect(returns?.items.map((i) => i.id)).not.toContain(turned.id);

    for (const role_id of [4, 5, 6, 7]) {
      const staff = await signedIn(t, { role_id, branch_id: agency.id });
      const accept = group(await myActions(staff.headers), 'accept');
      const screen = role_id === 4 ? `/custodies?custody=${turned.id}` : `/invoices?invoice=${turned.id}`;
      expect(accept, `role ${role_id}`).toMatchObject({
        count: 1,
        menu_path: role_id === 4 ? '/custodies' : '/invoices',
        items: [{ id: turned.id, path: screen }],
      });
      expect(accept?.items[0].label).toContain('Batangas Agency → Calapan Agency');
    }
    const otherBranch = await signedIn(t, { role_id: 6, branch_id: elsewhere.id });
    expect(group(await myActions(otherBranch.headers), 'accept')?.count).toBe(0);
    const auditor = await signedIn(t, { role_id: 9, branch_id: agency.id });
    expect(invoiceWork(await myActions(auditor.headers))).toBe(0);
  });

  it("when every role of two branches looks at in-transit invoices of every type, then 'Invoices to accept' lists exactly those can() lets it accept", async () => {
    const destination = await createBranch(t.db, { name: 'Rule Destination' });
    const origin = await createBranch(t.db, { name: 'Rule Origin' });
    const requester = await createUser(t.db, { role_id: 7, branch_id: destination.id });
    const transfers: InvoiceRecord[] = [];
    for (const type of [INVOICE_TYPE.ISSUED, INVOICE_TYPE.RETURN, INVOICE_TYPE.TURNOVER]) {
      transfers.push(
        await buildInvoice(t.db, {
          user_id: requester.id,
          type,
          status: INVOICE_STATUS.IN_TRANSIT,
          from_branch_id: origin.id,
          branch_id: destination.id,
        }),
      );
    }
    for (const branch_id of [destination.id, origin.id]) {
      for (const role_id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
        const staff = await signedIn(t, { role_id, branch_id });
        const actor = { id: staff.user.id, role_id, branch_id };
        const listed = group(await myActions(staff.headers), 'accept')?.items.map((item) => item.id) ?? [];
        const allowed = transfers.filter((invoice) => can(actor, 'invoice.accept', invoice)).map((invoice) => invoice.id);
        expect(
          listed.filter((id) => transfers.some((invoice) => invoice.id === id)).sort(),
          `role ${role_id} at branch ${branch_id}`,
        ).toEqual(allowed.sort());
      }
    }
    const asRequester = await loginAs(t, requester.email);
    const mine = group(await myActions(asRequester.headers), 'accept')?.items.map((item) => item.id);
    expect(mine).toContain(transfers[0].id);
  });

  it('when an accepted issue is past its expected return and the requester still holds its pads, then it is overdue for them until the pads go back', async () => {
    const overdue = await buildIssuedInvoice(t.db, { expectedReturnDate: '2020-01-31', padCount: 2 });
    await buildIssuedInvoice(t.db, {
      requester: overdue.requester,
      toBranch: overdue.toBranch,
      expectedReturnDate: '2999-01-31',
      padCount: 1,
    });
    const requester = await loginAs(t, overdue.requester.email);

    const late = group(await myActions(requester.headers), 'overdue');
    expect(late).toMatchObject({ title: 'Overdue returns', count: 1, menu_path: '/invoices' });
    expect(late?.items).toEqual([
      { id: overdue.invoice.id, label: expect.stringContaining('due 31 Jan 2020'), path: `/invoices?invoice=${overdue.invoice.id}` },
    ]);

    for (const pad of overdue.pads)
      await t.db.update(padCustody).set({ holder_user_id: null, holder_branch_id: headOffice.id }).where(eq(padCustody.pad_id, pad.id));
    expect(group(await myActions(requester.headers), 'overdue')?.count).toBe(0);
  });

  it('when a driver is handed a custody, then only the carried group counts it', async () => {
    const driver = await signedIn(t, { role_id: 10 });
    const holder = await createUser(t.db, { role_id: 5, branch_id: headOffice.id });
    const pad = await buildPad(t.db, { heldBy: { userId: holder.id, branchId: headOffice.id } });
    const invoice = await buildInvoice(t.db, {
      user_id: holder.id,
      type: INVOICE_TYPE.RETURN,
      status: INVOICE_STATUS.IN_TRANSIT,
      assigned_user_id: driver.user.id,
      pads: [pad],
    });
    const answer = await myActions(driver.headers);
    expect(answer).toEqual({
      total: 1,
      groups: [
        {
          kind: 'carry',
          title: 'Custody I carry',
          count: 1,
          menu_path: '/custodies',
          list_path: '/custodies',
          items: [
            {
              id: invoice.id,
              label: expect.stringContaining(`Return #${invoice.id} with 1 pad`),
              path: `/custodies?custody=${invoice.id}`,
            },
          ],
        },
      ],
    });
  });
});

describe('hand-overs waiting for their receiver (two-party hand-over)', () => {
  type Session = Awaited<ReturnType<typeof signedIn>>;
  const post = (url: string, who: Session, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: `/api/${url}`, headers: who.headers, payload });
  const uid = () => Math.random().toString(36).slice(2, 10);

  /** A Return of two pads carried by Nestor, handed to Rey from the list, so it waits for Rey. */
  async function waitingForRey() {
    const location = await createLocation(t.db, { name: `Pier ${uid()}` });
    const branch = await createBranch(t.db, { name: `Branch ${uid()}`, location_id: location.id });
    const holder = await signedIn(t, { role_id: 5, branch_id: branch.id });
    const route = await createRoute(t.db);
    const held = { route_id: route.id, heldBy: { userId: holder.user.id, branchId: branch.id } };
    const padIds = [(await buildPad(t.db, held)).id, (await buildPad(t.db, held)).id];
    const giver = await signedIn(t, { role_id: 10, branch_id: branch.id, first_name: 'Nestor', last_name: 'Ramos' });
    const receiver = await signedIn(t, { role_id: 10, branch_id: branch.id, first_name: 'Rey', last_name: 'Cruz' });
    const made = await post('create-return-invoice', holder, { pads: padIds, assigned_user_id: giver.user.id });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as number;
    expect((await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id })).statusCode).toBe(200);
    return { giver, receiver, id, route };
  }

  it('when a hand-over waits for the receiver, then only he sees "Nestor Ramos hands you Return #n, 2 pads (route pads 1, 2) — Accept custody?" and accepting from it moves the custody and clears it', async () => {
    const { giver, receiver, id, route } = await waitingForRey();
    const padList = [1, 2].map((number) => ({ route: route.name, number }));
    const asked = group(await myActions(receiver.headers), 'accept_hand_over');
    expect(asked).toEqual({
      kind: 'accept_hand_over',
      title: 'Hand-overs to accept',
      count: 1,
      menu_path: '/custodies',
      list_path: '/custodies',
      items: [
        {
          id,
          label: acceptQuestion({ from_name: 'Nestor Ramos', invoice_type: 'Return', invoice_id: id, pads: 2, pad_list: padList }),
          path: '/custodies',
        },
      ],
    });
    expect(asked?.items[0].label).toBe(`Nestor Ramos hands you Return #${id}, 2 pads (${route.name} pads 1, 2) — Accept custody?`);
    expect(group(await myActions(giver.headers), 'accept_hand_over')).toBeUndefined();
    const bystander = await signedIn(t, { role_id: 10, branch_id: headOffice.id });
    expect(group(await myActions(bystander.headers), 'accept_hand_over')).toBeUndefined();

    expect((await post(`accept-hand-over/${id}`, receiver)).statusCode).toBe(200);
    expect(group(await myActions(receiver.headers), 'accept_hand_over')).toBeUndefined();
    expect(group(await myActions(receiver.headers), 'carry')?.items.map((item) => item.id)).toContain(id);
  });

  it('when the invoice is accepted at its destination before the receiver answers, then the hand-over no longer asks him', async () => {
    const { receiver, id } = await waitingForRey();
    expect(group(await myActions(receiver.headers), 'accept_hand_over')?.count).toBe(1);
    const accounting = await signedIn(t, { role_id: 8, branch_id: headOffice.id });
    expect((await post(`accept-invoice/${id}`, accounting)).statusCode).toBe(200);
    expect(group(await myActions(receiver.headers), 'accept_hand_over')).toBeUndefined();
    expect((await post(`accept-hand-over/${id}`, receiver)).statusCode).toBe(409);
  });
});
