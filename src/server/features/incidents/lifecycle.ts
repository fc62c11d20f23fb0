import { dateInZone } from '../../../shared/format.ts';
import type { Actor, IncidentForRules } from '../../../shared/permissions.ts';
import {
  INCIDENT_MSG,
  type ConfirmLossInput,
  type FoundInput,
  type Incident,
  type LossIncidentInput,
} from '../../../shared/schemas/incidents.ts';
import type { AppContext } from '../../context.ts';
import type { Conn, Tx } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { assertCan } from '../../lib/policy.ts';
import { leaveIfLostOnTheWay } from '../invoices/lifecycle.ts';
import { lockedPad, padForRules, restoreNumbers, unusedRuns, wholePadWriteOff, writeOffNumbers } from '../pads/lifecycle.ts';
import { checkedFiles, mailNotice, noticeOfLoss, type CheckedFile, type NoticeLine, type UploadedFile } from './documents.ts';
import { detail } from './read-model.ts';
import * as repo from './repo.ts';

const yearOf = (at: Date, timeZone: string) => Number(dateInZone(at, timeZone).slice(0, 4));

/**
 * docs/design.md §9: reporting a loss of numbers or whole pads, by anyone holding them or carrying them on an
 * in-transit invoice. The incident gets the next gapless LOSS-YYYY-NNNN in the same transaction as its pads
 * and attachments; nothing is written off until an approver confirms it.
 */
export async function report(
  ctx: AppContext,
  actor: Actor,
  input: LossIncidentInput,
  files: UploadedFile[],
): Promise<{ id: number; number: string; status: 'reported' }> {
  const attachments = checkedFiles(files, input, actor.id);
  return ctx.db.transaction((tx) => reportIn(tx, ctx, actor, input, attachments));
}

/** report() inside the caller's transaction, its files already checked: a count opens a loss incident with its resolution. */
export async function reportIn(
  tx: Tx,
  ctx: AppContext,
  actor: Actor,
  input: LossIncidentInput,
  attachments: CheckedFile[] = [],
): Promise<{ id: number; number: string; status: 'reported' }> {
  const lines: Array<{ pad_id: number; route_id: number; from_number: number; to_number: number }> = [];
  const byPad = [...input.pads].sort((a, b) => a.pad_id - b.pad_id);
  for (const line of byPad) {
    const pad = await padForRules(tx, await lockedPad(tx, line.pad_id));
    assertCan(actor, 'incident.report', pad, INCIDENT_MSG.notYourPad(pad.number));
    const from = line.from ?? pad.series_from;
    const to = line.to ?? pad.series_to;
    if (unusedRuns(pad, from, to).length === 0) throw conflict(INCIDENT_MSG.nothingLeft(pad.number));
    const open = await repo.openIncidentOverlapping(tx, pad.id, from, to);
    if (open) throw conflict(INCIDENT_MSG.alreadyReported(open.from, open.number));
    lines.push({ pad_id: pad.id, route_id: pad.route_id, from_number: from, to_number: to });
  }
  const now = new Date();
  const year = yearOf(now, ctx.config.timeZone);
  const seq = await repo.nextSequence(tx, year);
  const incident = await repo.insertIncident(tx, {
    number: `LOSS-${year}-${String(seq).padStart(4, '0')}`,
    year,
    seq,
    place: input.place,
    occurred_at: new Date(input.occurred_at),
    circumstances: input.circumstances,
    reported_by: actor.id,
    reported_at: now,
    device_at: input.device_at ? new Date(input.device_at) : null,
  });
  await repo.insertPads(
    tx,
    lines.map((line) => ({ ...line, incident_id: incident.id })),
  );
  await repo.insertAttachments(
    tx,
    attachments.map((file) => ({ ...file, incident_id: incident.id })),
  );
  return { id: incident.id, number: incident.number, status: 'reported' as const };
}

async function rulesOf(conn: Conn, incident: repo.IncidentRecord): Promise<IncidentForRules> {
  const pads = await repo.padsOf(conn, incident.id);
  const infos = await repo.padInfos(
    conn,
    pads.map((pad) => pad.pad_id),
  );
  const branchIds = infos.flatMap((info) => [info.holder_branch_id, info.holder_user_branch_id]).filter((id): id is number => id !== null);
  return { reported_by: incident.reported_by, branch_ids: [...new Set(branchIds)] };
}

async function decidable(tx: Tx, actor: Actor, id: number): Promise<repo.IncidentRecord> {
  const incident = await repo.lockIncident(tx, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (incident.reported_by === actor.id) throw forbidden(INCIDENT_MSG.ownReport);
  assertCan(actor, 'incident.decide', await rulesOf(tx, incident));
  if (incident.status !== 'reported') throw conflict(INCIDENT_MSG.notReported);
  return incident;
}

/** The numbers an incident still has unused written off as `lost`, and each pad lost on the way taken off its invoice. */
async function writeOffLines(tx: Tx, ctx: AppContext, actor: Actor, incident: repo.IncidentRecord): Promise<NoticeLine[]> {
  const lines: NoticeLine[] = [];
  for (const line of await repo.padsOf(tx, incident.id)) {
    const pad = await lockedPad(tx, line.pad_id);
    const invoiceId = pad.locked_by_invoice_id;
    const runs = unusedRuns(pad, line.from_number, line.to_number);
    for (const [from, to] of runs) {
      await writeOffNumbers(tx, ctx, {
        padId: pad.id,
        from,
        to,
        kind: 'lost',
        reason: `${incident.number}: lost at ${incident.place}`,
        copiesRetained: null,
        actorId: incident.reported_by,
        approverId: actor.id,
        incidentId: incident.id,
        allowInTransit: true,
      });
    }
    const left =
      invoiceId !== null &&
      (await leaveIfLostOnTheWay(tx, {
        invoiceId,
        padId: pad.id,
        padNumber: pad.number,
        incident: { id: incident.id, number: incident.number },
        actorId: actor.id,
      }));
    lines.push(...runs.map(([from, to]) => ({ padId: pad.id, from, to, invoiceId, leftInvoice: left })));
  }
  return lines;
}

/**
 * Confirming (roles 1, 3, 5 for their branch, 8; never the reporter) writes `lost` for the numbers of each
 * range still unused, against their accountable holder (the sender while an invoice carries them); a pad with nothing
 * unused left stops being carried by its in-transit invoice. Without an affidavit of loss among the papers the approver
 * gives the reason (e.g. "Affidavit to follow"). Makes the Notice of Loss PDF and keeps it; after the commit the notice
 * is mailed to every branch custodian and roles 3, 8 and 9.
 */
export async function confirm(ctx: AppContext, actor: Actor, id: number, input: ConfirmLossInput): Promise<Incident> {
  const { incident, pdf } = await ctx.db.transaction(async (tx) => {
    const incident = await decidable(tx, actor, id);
    const attachments = await repo.attachmentsOf(tx, id);
    const hasAffidavit = attachments.some((file) => file.kind === 'affidavit');
    if (!hasAffidavit && !input.no_affidavit_reason) throw invalid('no_affidavit_reason', INCIDENT_MSG.noAffidavitReasonRequired);
    const noAffidavitReason = hasAffidavit ? null : input.no_affidavit_reason;
    const lines = await writeOffLines(tx, ctx, actor, incident);
    const decidedAt = new Date();
    const pdf = await noticeOfLoss(tx, ctx, incident, {
      lines,
      confirmedBy: actor.id,
      confirmedAt: decidedAt,
      attachments,
      noAffidavitReason,
    });
    await repo.updateIncident(tx, id, {
      status: 'confirmed',
      decided_by: actor.id,
      decided_at: decidedAt,
      notice_pdf: pdf,
      no_affidavit_reason: noAffidavitReason,
    });
    return { incident, pdf };
  });
  await mailNotice(ctx, incident, pdf);
  return detail(ctx, actor, id);
}

/** A decider (as for confirm) turns the report down with a reason; nothing is written off. */
export async function reject(ctx: AppContext, actor: Actor, id: number, reason: string): Promise<Incident> {
  await ctx.db.transaction(async (tx) => {
    await decidable(tx, actor, id);
    await repo.updateIncident(tx, id, { status: 'rejected', decided_by: actor.id, decided_at: new Date(), rejection_reason: reason });
  });
  return detail(ctx, actor, id);
}

/**
 * docs/design.md §9 found, first step: a Custodian or Accounting user records numbers of a confirmed loss found again;
 * not while their pad is Cancelled or Lost as a whole, which would keep them written off (reinstate it first).
 */
export async function recordFound(ctx: AppContext, actor: Actor, id: number, input: FoundInput): Promise<Incident> {
  await ctx.db.transaction((tx) => recordFoundIn(tx, actor, id, input));
  return detail(ctx, actor, id);
}

/** recordFound() inside the caller's transaction: a physical count records a lost booklet found with its resolution. */
export async function recordFoundIn(tx: Tx, actor: Actor, id: number, input: FoundInput): Promise<void> {
  assertCan(actor, 'incident.found');
  const incident = await repo.lockIncident(tx, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (incident.status !== 'confirmed') throw conflict(INCIDENT_MSG.notConfirmed);
  const covered = (await repo.padsOf(tx, id)).some(
    (line) => line.pad_id === input.pad_id && line.from_number <= input.from && line.to_number >= input.to,
  );
  if (!covered) throw conflict(INCIDENT_MSG.notLostHere(input.from));
  const pad = await lockedPad(tx, input.pad_id);
  const writtenOff = wholePadWriteOff(pad);
  if (writtenOff) throw conflict(INCIDENT_MSG.reinstatePadFirst(pad.number, writtenOff));
  for (let n = input.from; n <= input.to; n += 1) {
    if (pad.series_status[n - pad.series_from] !== '4') throw conflict(INCIDENT_MSG.notLostHere(n));
  }
  await repo.insertFound(tx, {
    incident_id: id,
    pad_id: input.pad_id,
    from_number: input.from,
    to_number: input.to,
    reason: input.reason,
    recorded_by: actor.id,
  });
}

/** Second step: another user of roles 3 or 8 confirms, and the numbers come back to stock by a `found` event. */
export async function confirmFound(ctx: AppContext, actor: Actor, id: number, foundId: number): Promise<Incident> {
  await ctx.db.transaction(async (tx) => {
    const found = await repo.lockFound(tx, id, foundId);
    if (!found) throw notFound(INCIDENT_MSG.notFound);
    if (found.recorded_by === actor.id) throw forbidden(INCIDENT_MSG.ownFound);
    assertCan(actor, 'incident.confirmFound', { recorded_by: found.recorded_by });
    if (found.confirmed_by !== null) throw conflict(INCIDENT_MSG.foundDone);
    await restoreNumbers(tx, ctx, {
      padId: found.pad_id,
      from: found.from_number,
      to: found.to_number,
      kind: 'found',
      reason: found.reason,
      actorId: found.recorded_by,
      approverId: actor.id,
      incidentId: id,
    });
    await repo.confirmFound(tx, foundId, actor.id);
  });
  return detail(ctx, actor, id);
}
