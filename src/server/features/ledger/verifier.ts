import type { Conn } from '../../db/client.ts';
import { ENTERING_KINDS, GENESIS_HASH, eventHash, numberStates } from './fold.ts';
import { inTransitInvoicesByPad } from '../invoices/read-model.ts';
import { padViewsAfter, type PadView } from '../pads/repo.ts';
import * as repo from './repo.ts';

export interface LedgerProblem {
  pad_id: number;
  pad: string;
  message: string;
}

type Folded = 'none' | 'stock' | 'used' | 'cancelled' | 'lost' | 'out';

const holderKey = (user: number | null, branch: number | null) => `${user ?? '-'}/${branch ?? '-'}`;
const holderText = (key: string) => {
  const [user, branch] = key.split('/');
  return user === '-' ? `branch ${branch}` : `user ${user} (branch ${branch})`;
};

const LEAVES: Record<string, Folded> = { used: 'used', cancelled: 'cancelled', lost: 'lost', transfer_out: 'out' };

/** Replays one pad's chain: order and hashes first, then the fold of its numbers. */
function checkChain(events: repo.PadEventRow[], from: number, to: number, say: (message: string) => void) {
  const length = to - from + 1;
  const state: Folded[] = new Array<Folded>(Math.max(length, 0)).fill('none');
  const holder: string[] = new Array<string>(Math.max(length, 0)).fill('');
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  for (const event of events) {
    if (event.seq !== expectedSeq) say(`event seq ${expectedSeq}${event.seq > expectedSeq + 1 ? `–${event.seq - 1}` : ''} is missing (next is event ${event.id}, seq ${event.seq})`);
    expectedSeq = event.seq + 1;
    if (event.prev_hash !== prev) say(`event ${event.id} (seq ${event.seq}) does not chain onto the event before it`);
    if (eventHash(event, event.prev_hash) !== event.hash) say(`event ${event.id} (seq ${event.seq}, ${event.kind}) was altered: its hash does not match its content`);
    prev = event.hash;
    if (event.from_number < from || event.to_number > to || event.from_number > event.to_number) {
      say(`event ${event.id} covers ${event.from_number}-${event.to_number}, outside the pad's series ${from}-${to}`);
      continue;
    }
    const key = holderKey(event.holder_user_id, event.holder_branch_id);
    const entering = ENTERING_KINDS.has(event.kind);
    let clashes = 0;
    for (let n = event.from_number; n <= event.to_number; n += 1) {
      const i = n - from;
      if (entering) {
        if (state[i] === 'stock') clashes += 1;
        state[i] = 'stock';
        holder[i] = key;
      } else {
        if (state[i] !== 'stock' || holder[i] !== key) clashes += 1;
        state[i] = LEAVES[event.kind] ?? 'out';
      }
    }
    if (clashes > 0) {
      say(
        entering
          ? `event ${event.id} (${event.kind}) puts ${clashes} number(s) of ${event.from_number}-${event.to_number} into stock that were already in someone's stock`
          : `event ${event.id} (${event.kind}) takes ${clashes} number(s) of ${event.from_number}-${event.to_number} from ${holderText(key)}, who did not hold them unused`,
      );
    }
  }
  return { state, holder };
}

function describeMismatch(pad: PadView, state: Folded[], holder: string[]): string[] {
  const view = numberStates(pad.series_status, pad.pad_status_id);
  const padHolder = holderKey(pad.holder_user_id, pad.holder_branch_id);
  const wrongState: number[] = [];
  const wrongHolder: number[] = [];
  for (let i = 0; i < view.length; i += 1) {
    if (state[i] !== view[i]) wrongState.push(pad.series_from + i);
    else if (view[i] === 'stock' && holder[i] !== padHolder) wrongHolder.push(pad.series_from + i);
  }
  const problems: string[] = [];
  if (wrongState.length > 0) {
    const first = wrongState[0] - pad.series_from;
    problems.push(`${wrongState.length} number(s) differ from the ledger, first ${wrongState[0]}: the pad says ${view[first]}, the events say ${state[first]}`);
  }
  if (wrongHolder.length > 0) {
    const first = wrongHolder[0] - pad.series_from;
    problems.push(`held by ${holderText(padHolder)} on the pad but by ${holderText(holder[first])} in the ledger (${wrongHolder.length} number(s), first ${wrongHolder[0]})`);
  }
  return problems;
}

const PAGE = 2000;

/**
 * The verifier of docs/design.md §8 over the whole database: every chain intact, every pad's fast view equal to the
 * fold of its events, no number in two stocks, every locked pad on exactly one in-transit invoice.
 * Reads pads in pages so memory stays flat; returns the problems pad by pad.
 */
export async function verifyLedger(conn: Conn): Promise<{ pads: number; events: number; problems: LedgerProblem[] }> {
  const problems: LedgerProblem[] = [];
  let padCount = 0;
  let eventCount = 0;
  let afterId = 0;
  for (;;) {
    const padPage = await padViewsAfter(conn, afterId, PAGE);
    if (padPage.length === 0) break;
    const page = { pads: padPage, events: await repo.eventsInPadRange(conn, afterId, padPage[padPage.length - 1].id) };
    const byPad = new Map<number, repo.PadEventRow[]>();
    for (const event of page.events) {
      const list = byPad.get(event.pad_id) ?? [];
      list.push(event);
      byPad.set(event.pad_id, list);
    }
    const transit = await inTransitInvoicesByPad(
      conn,
      page.pads.map((pad) => pad.id),
    );
    for (const pad of page.pads) {
      const name = `pad ${pad.id} (route ${pad.route_id}, pad no. ${pad.number}, ${pad.series_from}-${pad.series_to})`;
      const say = (message: string) => problems.push({ pad_id: pad.id, pad: name, message });
      const events = byPad.get(pad.id) ?? [];
      if (events.length === 0) say('has no events');
      const { state, holder } = checkChain(events, pad.series_from, pad.series_to, say);
      for (const message of describeMismatch(pad, state, holder)) say(message);
      const carriers = transit.get(pad.id) ?? [];
      if (pad.locked_by_invoice_id !== null && (carriers.length !== 1 || carriers[0] !== pad.locked_by_invoice_id)) {
        say(`is locked by invoice ${pad.locked_by_invoice_id} but is on ${carriers.length} in-transit invoice(s)${carriers.length ? ` (${carriers.join(', ')})` : ''}`);
      }
      if (pad.locked_by_invoice_id === null && carriers.length > 0) say(`is unlocked but on in-transit invoice(s) ${carriers.join(', ')}`);
    }
    padCount += page.pads.length;
    eventCount += page.events.length;
    afterId = page.pads[page.pads.length - 1].id;
  }
  for (const padId of await repo.orphanEventPadIds(conn)) {
    const events = await repo.eventsOfPads(conn, [padId]);
    eventCount += events.length;
    const from = Math.min(...events.map((event) => event.from_number));
    const to = Math.max(...events.map((event) => event.to_number));
    const name = `deleted pad ${padId} (route ${events[0].route_id}, ${from}-${to})`;
    const say = (message: string) => problems.push({ pad_id: padId, pad: name, message });
    const { state } = checkChain(events, from, to, say);
    const left = state.filter((value) => value === 'stock').length;
    if (left > 0) say(`is gone but ${left} of its number(s) are still in stock in the ledger`);
  }
  return { pads: padCount, events: eventCount, problems };
}

/** `npm run ledger:verify`: prints the problems pad by pad and answers the exit code (0 clean, 1 problems). */
export async function runLedgerVerify(conn: Conn, print: (line: string) => void): Promise<number> {
  const result = await verifyLedger(conn);
  let lastPad = -1;
  for (const problem of result.problems) {
    if (problem.pad_id !== lastPad) print(`${problem.pad}:`);
    lastPad = problem.pad_id;
    print(`  - ${problem.message}`);
  }
  const padsWithProblems = new Set(result.problems.map((problem) => problem.pad_id)).size;
  print(
    result.problems.length === 0
      ? `Ledger verified: ${result.pads} pads, ${result.events} events, no problems.`
      : `Ledger verification FAILED: ${result.problems.length} problem(s) on ${padsWithProblems} pad(s) (${result.pads} pads, ${result.events} events checked).`,
  );
  return result.problems.length === 0 ? 0 : 1;
}
