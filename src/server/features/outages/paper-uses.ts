import { dateInZone } from '../../../shared/format.ts';
import { PAPER_USE_MSG } from '../../../shared/schemas/paper-uses.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { conflict } from '../../lib/errors.ts';
import { establishmentOf } from '../establishments/read-model.ts';
import { seriesRoleOf } from '../registered-series/read-model.ts';
import * as repo from './paper-use-repo.ts';

/** What a paper use needs of the pad, as the usage's locked row holds it. */
export interface PaperUsePad {
  id: number;
  number: number;
  route_id: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  registered_series_id: number | null;
}

/** Roles that may not be issued at an e-invoicing establishment after its go-live (issue 38). */
const REFUSED_ROLES = new Set(['regular', 'retired']);

type Clock = Pick<AppContext, 'ledgerClock'>;
const now = (ctx: Clock) => ctx.ledgerClock?.() ?? new Date();

/** Where a usage happens: the branch that holds the pad, or the branch of the person who does. */
async function usageBranch(tx: Conn, pad: PaperUsePad): Promise<number | null> {
  if (pad.holder_branch_id !== null) return pad.holder_branch_id;
  return pad.holder_user_id === null ? null : repo.branchOfUser(tx, pad.holder_user_id);
}

/**
 * Issue 38: the usage of from..to of a pad at a covered establishment on or after its go-live day is linked to the outage
 * that covers its instant, or opens an exception; a regular or retired series (or none) is refused there with a 409.
 * Elsewhere, and before go-live, nothing is written. Answers the stored use, or null.
 */
export async function recordUse(
  tx: Conn,
  ctx: Pick<AppContext, 'config' | 'ledgerClock'>,
  input: { pad: PaperUsePad; from: number; to: number; usedAt: Date | null; actorId: number },
): Promise<repo.PaperUseRow | null> {
  const { pad } = input;
  const branchId = await usageBranch(tx, pad);
  if (branchId === null) return null;
  const establishment = await establishmentOf(tx, branchId);
  const since = establishment?.covered ? establishment.e_invoicing_since : null;
  if (since === null) return null;
  const usedAt = input.usedAt ?? now(ctx);
  const businessDate = dateInZone(usedAt, ctx.config.timeZone);
  if (businessDate < since) return null;
  const role = pad.registered_series_id === null ? null : await seriesRoleOf(tx, pad.registered_series_id);
  if (role === null) throw conflict(PAPER_USE_MSG.noSeries(pad.number, since));
  if (REFUSED_ROLES.has(role)) throw conflict(PAPER_USE_MSG.roleRefused(pad.number, role, since));
  await repo.lockEstablishment(tx, branchId);
  const outageId = await repo.outageCovering(tx, branchId, usedAt);
  return repo.insertPaperUse(tx, {
    branch_id: branchId,
    pad_id: pad.id,
    route_id: pad.route_id,
    registered_series_id: pad.registered_series_id,
    series_role: role,
    number_from: input.from,
    number_to: input.to,
    holder_user_id: pad.holder_user_id,
    used_at: usedAt,
    business_date: businessDate,
    recorded_by: input.actorId,
    outage_id: outageId,
    state: outageId === null ? 'open' : 'linked',
  });
}

/**
 * Usage of from..to undone (the numbers are unused again): the paper uses holding them are marked undone, so they drop out
 * of the exceptions and the summary. A use only partly undone keeps its other numbers as new rows with the same state,
 * outage and decision; the undone row stays as the record of what was first written.
 */
export async function undoUses(tx: Conn, ctx: Clock, input: { padId: number; from: number; to: number }): Promise<number> {
  const rows = await repo.lockUsesOverlapping(tx, input.padId, input.from, input.to);
  if (rows.length === 0) return 0;
  const kept: repo.NewPaperUse[] = [];
  for (const row of rows) {
    const { id: _id, created_at: _created, ...rest } = row;
    if (row.number_from < input.from) kept.push({ ...rest, number_from: row.number_from, number_to: input.from - 1 });
    if (row.number_to > input.to) kept.push({ ...rest, number_from: input.to + 1, number_to: row.number_to });
  }
  await repo.markUndone(
    tx,
    rows.map((row) => row.id),
    now(ctx),
  );
  await repo.insertPaperUses(tx, kept);
  return rows.length;
}

/**
 * Issue 38: after an outage is declared or its window changes, the open exceptions of its establishment inside the
 * window [starts_at, ends_at) are linked to it, and the uses linked to it that the window no longer holds are open
 * again. Justified and rejected exceptions are never touched. Call it in the transaction that saved the outage.
 */
export async function relinkWindow(
  tx: Conn,
  outage: { id: number; branch_id: number; starts_at: Date | string; ends_at: Date | string | null },
): Promise<{ linked: number; unlinked: number }> {
  await repo.lockEstablishment(tx, outage.branch_id);
  const window = {
    id: outage.id,
    branch_id: outage.branch_id,
    starts_at: new Date(outage.starts_at),
    ends_at: outage.ends_at === null ? null : new Date(outage.ends_at),
  };
  const unlinked = await repo.unlinkUsesOutside(tx, window);
  const linked = await repo.linkOpenUses(tx, window);
  return { linked, unlinked };
}
