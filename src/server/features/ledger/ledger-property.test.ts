import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, gt, max } from 'drizzle-orm';
import { INVOICE_TYPE, PAD_STATUS } from '../../../shared/lookups.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn, storedPadRows, type PadRow } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { ENTERING_KINDS } from './fold.ts';
import { verifyLedger } from './verifier.ts';
import { businessDate } from './lifecycle.ts';

/**
 * Issue 33, item 1, as a property: no sequence of accepted API calls makes a RAAF refuse to balance, the verifier fail,
 * or a number's state disagree with its pad's status. A seeded random walk mixes whole-pad status changes, the grid's
 * usage marks, range usage, cancellations and losses (at once or by request), their undoing, loss incidents with
 * their two-person found, and issues, returns and turnovers on four pads, over about two and a half months of ledger
 * time. LEDGER_PROPERTY_SEED replays a walk; LEDGER_PROPERTY_STEPS lengthens it.
 */
const SEED = Number(process.env.LEDGER_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STEPS = Number(process.env.LEDGER_PROPERTY_STEPS ?? 200);
const PAD_SIZE = 10;
const FIRST = 3_000_001;
const DAY = 86_400_000;
const SPAN = 75 * DAY;

interface Who {
  id: number;
  name: string;
  branchId: number;
  headers: { authorization: string };
}
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** mulberry32: a small seeded generator, so a walk is the same on every run with its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const chance = (p: number) => next() < p;
  return { int, pick, chance };
}

let t: TestApp;
let headOfficeId: number;
let routeId: number;
let custodian: Who;
let accounting: Who;
let courier: Who;
let ana: Who;
let ben: Who;
let address = 0;
let clock = 0;

/** Every request from its own address, so the RAAF's render limit never answers for the walk. */
const call = (who: Who, method: Method, url: string, payload?: object) => {
  address += 1;
  const remoteAddress = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
  return t.app.inject({ method, url, headers: who.headers, remoteAddress, ...(payload ? { payload } : {}) });
};

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const calapan = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const batangas = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  const who = async (name: string, role_id: number, branch_id: number): Promise<Who> => {
    const { user, headers } = await signedIn(t, { role_id, branch_id, first_name: name });
    return { id: user.id, name, branchId: branch_id, headers };
  };
  custodian = await who('Custodian', 3, headOfficeId);
  accounting = await who('Accounting', 8, headOfficeId);
  courier = await who('Courier', 10, headOfficeId);
  ana = await who('Ana', 7, calapan);
  ben = await who('Ben', 7, batangas);
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  clock = Date.now() - SPAN;
  t.ctx.ledgerClock = () => new Date(clock);
  const generated = await call(custodian, 'POST', '/api/add-pad', {
    route_id: routeId,
    series_from: FIRST,
    series_to: FIRST + 4 * PAD_SIZE - 1,
    pad_size: PAD_SIZE,
  });
  expect(generated.statusCode, generated.body).toBe(201);
});
afterAll(async () => {
  t.ctx.ledgerClock = undefined;
  await t.close();
});

const padRows = () => storedPadRows(t.db).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));
const getPad = async (padId: number): Promise<Pad> => (await call(custodian, 'GET', `/api/get-pad/${padId}`)).json().data;
const latestInvoice = async (typeId: number) =>
  (await t.db.select().from(invoices).where(eq(invoices.invoice_type_id, typeId)).orderBy(desc(invoices.id)).limit(1))[0];

/** The state a number is in, as its pad row says: its own digit, or for an unused digit the whole pad's Cancelled or Lost. */
function rowState(pad: PadRow, number: number): string {
  const digit = pad.series_status[number - pad.series_from];
  if (digit === '2') return 'used';
  if (digit === '3') return 'cancelled';
  if (digit === '4') return 'lost';
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) return 'cancelled';
  if (pad.pad_status_id === PAD_STATUS.LOST) return 'lost';
  return 'not_used';
}

/** Used, Partially Used and Unused as the numbers make them (cancelled and lost count as consumed). */
function statusOfNumbers(pad: PadRow): number {
  const consumed = [...pad.series_status].filter((digit) => digit !== '1').length;
  if (consumed === 0) return PAD_STATUS.UNUSED;
  return consumed === pad.series_status.length ? PAD_STATUS.USED : PAD_STATUS.PARTIALLY_USED;
}

/** The state a number's own events leave it in, oldest first: what find-receipt's history says happened last. */
function eventsState(events: Array<{ kind: string }>): string {
  let state = 'none';
  for (const { kind } of events) {
    if (kind === 'custody_out' || kind === 'custody_in') continue;
    if (ENTERING_KINDS.has(kind)) state = 'not_used';
    else if (kind === 'used' || kind === 'cancelled' || kind === 'lost') state = kind;
    else if (kind === 'voided') state = 'cancelled';
    else state = 'moving';
  }
  return state;
}

interface Walk {
  rng: ReturnType<typeof generator>;
  log: string[];
  touched: Set<number>;
  requests: Map<number, number>;
  inTransit: Array<{ id: number; acceptor: Who }>;
  reported: number[];
  confirmed: Array<{ id: number; lines: Array<{ pad_id: number; from: number; to: number }> }>;
  pendingFound: Array<{ incident: number; found: number }>;
  pendingOutcomes: number[];
}

const holderOf = (pad: PadRow): Who | null => (pad.holder_user_id === ana.id ? ana : pad.holder_user_id === ben.id ? ben : null);
const writtenOff = (pad: PadRow) => pad.pad_status_id === PAD_STATUS.CANCELLED || pad.pad_status_id === PAD_STATUS.LOST;
const numbersWhere = (pad: PadRow, digit: string) => [...pad.series_status].flatMap((d, i) => (d === digit ? [pad.series_from + i] : []));

/** Whether a line of a confirmed loss still has a lost number to find. */
const stillLost = (rows: PadRow[]) => (line: { pad_id: number; from: number; to: number }) => {
  const pad = rows.find((row) => row.id === line.pad_id) as PadRow;
  return numbersWhere(pad, '4').some((n) => n >= line.from && n <= line.to);
};

const ACTIONS = [
  ['whole', 4],
  ['grid', 2],
  ['usage', 3],
  ['outcome', 3],
  ['request-outcome', 1],
  ['decide-outcome', 1],
  ['revert', 3],
  ['report-loss', 3],
  ['decide-loss', 3],
  ['found', 4],
  ['confirm-found', 4],
  ['issue', 3],
  ['transfer', 3],
  ['accept', 4],
] as const;
type Action = (typeof ACTIONS)[number][0];

/** The actions that have something to work on: a decision needs something pending, an acceptance something in transit. */
function possible(w: Walk, rows: PadRow[]): Action[] {
  const lostOn = stillLost(rows);
  const waiting: Partial<Record<Action, number>> = {
    'decide-outcome': w.pendingOutcomes.length,
    'decide-loss': w.reported.length,
    found: w.confirmed.filter((incident) => incident.lines.some(lostOn)).length,
    'confirm-found': w.pendingFound.length,
    accept: w.inTransit.length,
  };
  return ACTIONS.filter(([action]) => waiting[action] !== 0).flatMap(([action, weight]) => Array.from({ length: weight }, () => action));
}

/** One random action through the API, mostly with arguments the current state may accept; answers its status (null: nothing to do). */
async function step(w: Walk, rows: PadRow[]): Promise<{ status: number; what: string }> {
  const { rng } = w;
  const mostly = <T>(preferred: T[], fallback: T[]) => (preferred.length > 0 && rng.chance(0.8) ? preferred : fallback);
  const touch = (from: number, to: number) => {
    for (let n = from; n <= to; n += 1) w.touched.add(n);
  };
  /** A range of up to maxLength numbers of the pad, starting at one of `starts` mostly. */
  const range = (pad: PadRow, maxLength: number, starts: number[]) => {
    const from = rng.pick(mostly(starts, [pad.series_from + rng.int(0, PAD_SIZE - 1)]));
    const to = Math.min(pad.series_to, from + rng.int(0, maxLength - 1));
    touch(from, to);
    return { from, to };
  };
  const unusedOf = (pad: PadRow) => (writtenOff(pad) ? [] : numbersWhere(pad, '1'));
  const send = async (what: string, who: Who, method: Method, url: string, payload?: object) => {
    const res = await call(who, method, url, payload);
    expect(
      res.statusCode,
      `seed ${SEED}: ${what} answered ${res.statusCode} ${res.body}; last steps:\n${w.log.slice(-12).join('\n')}`,
    ).toBeLessThan(500);
    return { res, what: `${what} → ${res.statusCode}${res.statusCode >= 400 ? ` ${res.json().message}` : ''}` };
  };
  const unlocked = rows.filter((row) => row.locked_by_invoice_id === null);
  switch (rng.pick(possible(w, rows))) {
    case 'whole': {
      const pad = rng.pick(mostly(unlocked, rows));
      const current = await getPad(pad.id);
      const status = rng.pick([PAD_STATUS.CANCELLED, PAD_STATUS.LOST, PAD_STATUS.UNUSED, PAD_STATUS.PARTIALLY_USED, PAD_STATUS.USED]);
      const flips = rng.chance(0.2) ? [rng.int(0, PAD_SIZE - 1)] : [];
      const series = current.series.map((entry, i) =>
        flips.includes(i) && entry.status <= 2 ? { ...entry, status: 3 - entry.status } : entry,
      );
      for (const i of flips) touch(pad.series_from + i, pad.series_from + i);
      const { res, what } = await send(
        `whole pad ${pad.number}: status ${status}, flip ${flips.join(',') || 'none'}`,
        custodian,
        'PUT',
        `/api/update-pad/${pad.id}`,
        {
          pad_status_id: status,
          issuance_status_id: current.issuance_status_id,
          remarks: current.remarks,
          series,
        },
      );
      return { status: res.statusCode, what };
    }
    case 'grid': {
      const pad = rng.pick(mostly(unlocked, rows));
      const current = await getPad(pad.id);
      const flips = Array.from({ length: rng.int(1, 3) }, () => rng.int(0, PAD_SIZE - 1));
      const series = current.series.map((entry, i) =>
        flips.includes(i) && entry.status <= 2 ? { ...entry, status: 3 - entry.status } : entry,
      );
      for (const i of flips) touch(pad.series_from + i, pad.series_from + i);
      const { res, what } = await send(`grid pad ${pad.number}: flip ${flips.join(',')}`, custodian, 'PUT', `/api/update-pad/${pad.id}`, {
        pad_status_id: current.pad_status_id,
        issuance_status_id: current.issuance_status_id,
        remarks: current.remarks,
        series,
      });
      return { status: res.statusCode, what };
    }
    case 'usage': {
      const pad = rng.pick(
        mostly(
          unlocked.filter((row) => unusedOf(row).length > 0),
          rows,
        ),
      );
      const { from, to } = range(pad, 3, unusedOf(pad).slice(0, 2));
      const body = { from, to, ...(rng.chance(0.5) ? { reason: 'Skipped by the cashier' } : {}) };
      const { res, what } = await send(`usage pad ${pad.number} ${from}-${to}`, custodian, 'POST', `/api/pads/${pad.id}/usage`, body);
      return { status: res.statusCode, what };
    }
    case 'outcome':
    case 'request-outcome': {
      const byHolder = w.rng.chance(0.3);
      const pad = rng.pick(
        mostly(
          unlocked.filter((row) => unusedOf(row).length > 0 && (!byHolder || holderOf(row) !== null)),
          rows,
        ),
      );
      const { from, to } = range(pad, 3, unusedOf(pad));
      const outcome = rng.pick(['cancelled', 'lost'] as const);
      const body = {
        from,
        to,
        outcome,
        reason: outcome === 'cancelled' ? 'Spoiled (torn, stained, misprinted)' : 'Misplaced',
        ...(outcome === 'cancelled' ? { copies_retained: rng.chance(0.5) } : {}),
      };
      const who = byHolder ? (holderOf(pad) ?? rng.pick([ana, ben])) : custodian;
      const { res, what } = await send(
        `outcome ${outcome} pad ${pad.number} ${from}-${to} by ${who.name}`,
        who,
        'POST',
        `/api/pads/${pad.id}/outcome`,
        body,
      );
      if (res.statusCode === 202) w.pendingOutcomes.push(res.json().data.request_id);
      return { status: res.statusCode, what };
    }
    case 'decide-outcome': {
      const id = w.pendingOutcomes.shift() as number;
      const approve = rng.chance(0.7);
      const { res, what } = await send(
        `${approve ? 'approve' : 'reject'} outcome request ${id}`,
        custodian,
        'POST',
        `/api/outcome-requests/${id}/${approve ? 'approve' : 'reject'}`,
        approve ? undefined : { reason: 'Not spoiled' },
      );
      return { status: res.statusCode, what };
    }
    case 'revert': {
      const pad = rng.pick(
        mostly(
          rows.filter((row) => numbersWhere(row, '3').length > 0),
          rows,
        ),
      );
      const from = rng.pick(mostly(numbersWhere(pad, '3'), [pad.series_from + rng.int(0, PAD_SIZE - 1)]));
      const to = rng.chance(0.8) ? from : Math.min(pad.series_to, from + 1);
      touch(from, to);
      const { res, what } = await send(`revert pad ${pad.number} ${from}-${to}`, custodian, 'POST', '/api/outcome-reverts', {
        pad_id: pad.id,
        from,
        to,
        reason: 'Cancelled by mistake',
      });
      return { status: res.statusCode, what };
    }
    case 'report-loss': {
      const pad = rng.pick(
        mostly(
          rows.filter((row) => unusedOf(row).length > 0),
          rows,
        ),
      );
      const line = rng.chance(0.2) ? { pad_id: pad.id } : { pad_id: pad.id, ...range(pad, 4, unusedOf(pad)) };
      if (!('from' in line)) touch(pad.series_from, pad.series_to);
      const { res, what } = await send(`report loss ${JSON.stringify(line)}`, custodian, 'POST', '/api/loss-incidents', {
        pads: [line],
        place: 'Calapan pier',
        occurred_at: new Date(Date.now() - DAY).toISOString(),
        circumstances: 'Dropped into the sea while boarding.',
      });
      if (res.statusCode === 201) w.reported.push(res.json().data.id);
      return { status: res.statusCode, what };
    }
    case 'decide-loss': {
      const id = w.reported.shift() as number;
      const confirm = rng.chance(0.85);
      const { res, what } = await send(
        `${confirm ? 'confirm' : 'reject'} loss ${id}`,
        accounting,
        'POST',
        `/api/loss-incidents/${id}/${confirm ? 'confirm' : 'reject'}`,
        confirm ? { no_affidavit_reason: 'Affidavit to follow' } : { reason: 'Found before confirmation' },
      );
      if (confirm && res.statusCode === 200) {
        const lines = (res.json().data.pads as Array<{ pad: { id: number }; from: number; to: number }>).map((l) => ({
          pad_id: l.pad.id,
          from: l.from,
          to: l.to,
        }));
        for (const line of lines) touch(line.from, line.to);
        w.confirmed.push({ id, lines });
      }
      return { status: res.statusCode, what };
    }
    case 'found': {
      const lostOn = stillLost(rows);
      const incident = rng.pick(w.confirmed.filter((confirmed) => confirmed.lines.some(lostOn)));
      const line = rng.pick(mostly(incident.lines.filter(lostOn), incident.lines));
      const pad = rows.find((row) => row.id === line.pad_id) as PadRow;
      const lost = numbersWhere(pad, '4').filter((n) => n >= line.from && n <= line.to);
      const from = rng.pick(mostly(lost, [rng.int(line.from, line.to)]));
      const to = rng.chance(0.8) ? from : Math.min(line.to, from + rng.int(1, 2));
      touch(from, to);
      const { res, what } = await send(
        `found on loss ${incident.id}: ${from}-${to}`,
        custodian,
        'POST',
        `/api/loss-incidents/${incident.id}/found`,
        {
          pad_id: line.pad_id,
          from,
          to,
          reason: 'In a jacket',
        },
      );
      if (res.statusCode === 200) {
        const found = res.json().data.found as Array<{ id: number; status: string }>;
        w.pendingFound.push({ incident: incident.id, found: Math.max(...found.filter((f) => f.status === 'pending').map((f) => f.id)) });
      }
      return { status: res.statusCode, what };
    }
    case 'confirm-found': {
      const { incident, found } = w.pendingFound.shift() as { incident: number; found: number };
      const url = `/api/loss-incidents/${incident}/found/${found}/confirm`;
      const own = await call(custodian, 'POST', url);
      expect(own.statusCode, `seed ${SEED}: the recorder confirmed his own found numbers`).toBe(403);
      const { res, what } = await send(`confirm-found ${found} of loss ${incident}`, accounting, 'POST', url);
      return { status: res.statusCode, what };
    }
    case 'issue': {
      const requester = rng.pick([ana, ben]);
      let request = w.requests.get(requester.id);
      if (request === undefined) {
        const created = await call(requester, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 1 });
        expect(created.statusCode, created.body).toBe(201);
        request = created.json().data.id as number;
        w.requests.set(requester.id, request);
      }
      const atHeadOffice = unlocked.filter(
        (row) => row.holder_user_id === null && !writtenOff(row) && row.series_status.includes('1') && !row.series_status.includes('4'),
      );
      let pad = rng.pick(mostly(atHeadOffice, rows));
      if (atHeadOffice.length === 0) {
        /* Every booklet left the head office or has a lost number, which is never issued: a new one arrives, as the custodian would order it. */
        const last = Math.max(...rows.map((row) => row.series_to));
        const added = await call(custodian, 'POST', '/api/add-pad', {
          route_id: routeId,
          series_from: last + 1,
          series_to: last + PAD_SIZE,
          pad_size: PAD_SIZE,
        });
        expect(added.statusCode, added.body).toBe(201);
        pad = (await padRows()).find((row) => row.series_from === last + 1) as PadRow;
      }
      const { res, what } = await send(`issue pad ${pad.number} to ${requester.name}`, custodian, 'POST', '/api/issue-invoice', {
        invoice_id: request,
        pads: [pad.id],
        assigned_user_id: courier.id,
        expected_return: 3,
      });
      if (res.statusCode === 201) {
        w.requests.delete(requester.id);
        w.inTransit.push({ id: (await latestInvoice(INVOICE_TYPE.ISSUED)).id, acceptor: requester });
      }
      return { status: res.statusCode, what };
    }
    case 'transfer': {
      const pad = rng.pick(
        mostly(
          unlocked.filter((row) => holderOf(row) !== null),
          rows,
        ),
      );
      const sender = holderOf(pad) ?? rng.pick([ana, ben]);
      const receiver = sender === ana ? ben : ana;
      const turnover = rng.chance(0.4);
      const [url, body] = turnover
        ? ['/api/create-turnover-invoice', { pads: [pad.id], branch_id: receiver.branchId, assigned_user_id: courier.id }]
        : ['/api/create-return-invoice', { pads: [pad.id], assigned_user_id: courier.id }];
      const { res, what } = await send(
        `${turnover ? 'turnover' : 'return'} pad ${pad.number} by ${sender.name}`,
        sender,
        'POST',
        url,
        body,
      );
      if (res.statusCode === 201) {
        const invoice = await latestInvoice(turnover ? INVOICE_TYPE.TURNOVER : INVOICE_TYPE.RETURN);
        w.inTransit.push({ id: invoice.id, acceptor: turnover ? receiver : accounting });
      }
      return { status: res.statusCode, what };
    }
    case 'accept': {
      const invoice = w.inTransit.splice(rng.int(0, w.inTransit.length - 1), 1)[0];
      const { res, what } = await send(
        `accept invoice ${invoice.id} by ${invoice.acceptor.name}`,
        invoice.acceptor,
        'POST',
        `/api/accept-invoice/${invoice.id}`,
      );
      if (res.statusCode !== 200) w.inTransit.push(invoice);
      return { status: res.statusCode, what };
    }
  }
}

/** The RAAF of each holder of the month answers 200: one that does not balance is a 409. */
async function expectRaafsBalance(month: string, holders: Iterable<string>, context: string) {
  for (const query of holders) {
    const res = await call(accounting, 'GET', `/api/raaf?month=${month}&${query}`);
    expect(res.statusCode, `${context}RAAF ${month} ${query} answered ${res.body.slice(0, 300)}`).toBe(200);
  }
}

/** The holders whose ledger the events after `afterId` touched, as RAAF queries. */
async function holdersAfter(afterId: number): Promise<Set<string>> {
  const rows = await t.db
    .select({
      user: padEvents.holder_user_id,
      branch: padEvents.holder_branch_id,
      otherUser: padEvents.counterparty_user_id,
      otherBranch: padEvents.counterparty_branch_id,
    })
    .from(padEvents)
    .where(and(eq(padEvents.route_id, routeId), gt(padEvents.id, afterId)));
  const holders = new Set<string>();
  for (const row of rows) {
    for (const [user, branch] of [
      [row.user, row.branch],
      [row.otherUser, row.otherBranch],
    ]) {
      if (user !== null) holders.add(`user_id=${user}`);
      else if (branch !== null) holders.add(`branch_id=${branch}`);
    }
  }
  return holders;
}

const lastEventId = async () =>
  (
    await t.db
      .select({ id: max(padEvents.id) })
      .from(padEvents)
      .where(eq(padEvents.route_id, routeId))
  )[0].id ?? 0;

/** The kinds of step every walk must have seen accepted, so a short or unlucky walk cannot pass by trying little. */
const EVERY_KIND = [
  'whole',
  'grid',
  'usage',
  'outcome',
  'revert',
  'report',
  'confirm',
  'found',
  'confirm-found',
  'issue',
  'return',
  'accept',
];

describe('the ledger under random accepted sequences (issue 33, item 1)', () => {
  it('when pads go through hundreds of random status changes, marks, outcomes, undos, losses, founds and transfers, then after every step the verifier passes, the touched RAAFs balance and every number agrees with its pad', async () => {
    const w: Walk = {
      rng: generator(SEED),
      log: [],
      touched: new Set(),
      requests: new Map(),
      inTransit: [],
      reported: [],
      confirmed: [],
      pendingFound: [],
      pendingOutcomes: [],
    };
    const accepted = new Map<string, number>();
    const everyone = [`branch_id=${headOfficeId}`, `user_id=${ana.id}`, `user_id=${ben.id}`];
    let month = businessDate(new Date(clock), t.ctx.config.timeZone).slice(0, 7);
    const missing = () => EVERY_KIND.filter((kind) => !accepted.has(kind));
    /* A walk goes on past STEPS (up to twice as long) until every kind of step was accepted at least once. */
    for (let i = 0; i < STEPS || (missing().length > 0 && i < 2 * STEPS); i += 1) {
      clock = Math.min(Date.now() - 60_000, clock + w.rng.int(0, Math.floor((2 * SPAN) / STEPS)));
      const now = businessDate(new Date(clock), t.ctx.config.timeZone).slice(0, 7);
      const context = () =>
        `seed ${SEED} (replay with LEDGER_PROPERTY_SEED=${SEED}), step ${i}; last steps:\n${w.log.slice(-12).join('\n')}\n`;
      if (now !== month) await expectRaafsBalance(month, everyone, context());
      month = now;
      const rows = await padRows();
      const lastId = await lastEventId();
      w.touched.clear();
      const { status, what } = await step(w, rows);
      w.log.push(`${i}: ${what}`);
      const after = await padRows();
      if (status >= 400) {
        expect(after, `${context()}a refused step changed a pad`).toEqual(rows);
        expect(await lastEventId(), `${context()}a refused step wrote events`).toBe(lastId);
        continue;
      }
      const kind = what.split(' ')[0];
      accepted.set(kind, (accepted.get(kind) ?? 0) + 1);

      expect((await verifyLedger(t.db, { mode: 'full', balances: 'all' })).problems, `${context()}ledger:verify`).toEqual([]);
      await expectRaafsBalance(month, await holdersAfter(lastId), context());
      for (const pad of after) {
        if (!writtenOff(pad))
          expect(pad.pad_status_id, `${context()}pad ${pad.number} (${pad.series_status}) has a status its numbers do not have`).toBe(
            statusOfNumbers(pad),
          );
      }
      for (const number of [...w.touched, FIRST + w.rng.int(0, 4 * PAD_SIZE - 1)]) {
        const pad = after.find((row) => row.series_from <= number && number <= row.series_to) as PadRow;
        const res = await call(accounting, 'GET', `/api/find-receipt?number=${number}&route_id=${routeId}`);
        const [finding] = res.json().data as Array<{ status: string; events: Array<{ kind: string }> }>;
        const expected = rowState(pad, number);
        expect(finding.status, `${context()}find-receipt ${number} on pad ${pad.number} (status ${pad.pad_status_id})`).toBe(expected);
        expect(eventsState(finding.events), `${context()}the events of ${number} end in another state than ${expected}`).toBe(expected);
      }
    }
    await expectRaafsBalance(month, everyone, `seed ${SEED}, at the end: `);
    for (const kind of missing())
      expect(accepted.get(kind) ?? 0, `seed ${SEED}: no ${kind} step was accepted in ${2 * STEPS} steps`).toBeGreaterThan(0);
  }, 180_000);
});
