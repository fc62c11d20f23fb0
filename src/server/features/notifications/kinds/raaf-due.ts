import { monthText } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import * as ledger from '../../ledger/read-model.ts';
import { Names } from '../../users/read-model.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';
import type { People } from '../people.ts';

/** How many ended months are still chased: an older uncertified month leaves the lists (the auditor has it by then). */
export const RAAF_MONTHS_CHASED = 3;

const ordinal = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;

/** Who certifies a holder's RAAF (permissions.ts raaf.certify): the user, or for a branch its custodian and head, else Admin. */
function certifiers(people: People, holder: { type: 'user' | 'branch'; id: number }): number[] {
  if (holder.type === 'user') return [holder.id];
  const branch = people.all.filter(
    (p) => p.active && p.branch_id === holder.id && (p.role_id === ROLE.BRANCH_CUSTODIAN || p.role_id === ROLE.BRANCH_HEAD),
  );
  return (branch.length > 0 ? branch : people.withRoles([ROLE.ADMIN])).map((p) => p.id);
}

/**
 * Issue 37 RAAF due: after a month ends, every holder the month's RAAF fold finds (they held or moved forms in it) who
 * has not certified is told once the due day has passed (level 0, period the month), and Accounting from the escalation
 * day (level 1). A certificate resolves both. The last RAAF_MONTHS_CHASED ended months are looked at.
 */
export const evaluator: Evaluator = {
  kinds: ['raaf_due'],
  async evaluate(ctx, { today, thresholds, people }) {
    const day = Number(today.slice(8, 10));
    const accounting = people.withRoles([ROLE.ACCOUNTING]).map((p) => p.id);
    const items: AlertItem[] = [];
    let month = today.slice(0, 7);
    for (let back = 1; back <= RAAF_MONTHS_CHASED; back += 1) {
      month = ledger.previousMonth(month);
      const late = back > 1 || day > thresholds.raaf_due_day;
      if (!late) continue;
      const escalated = back > 1 || day >= thresholds.raaf_escalate_day;
      const owing = (await ledger.raafHoldersOfMonth(ctx, month)).filter((holder) => !holder.certified);
      if (owing.length === 0) continue;
      const names = await Names.load(
        ctx.db,
        owing.filter((h) => h.type === 'user').map((h) => h.id),
        owing.filter((h) => h.type === 'branch').map((h) => h.id),
      );
      for (const holder of owing) {
        const subject = { type: 'raaf', id: `${holder.type === 'user' ? 'u' : 'b'}:${holder.id}` };
        const link = `/accountability?month=${month}&holder=${subject.id}`;
        const name =
          holder.type === 'user'
            ? names.holderText(holder.id, names.branchOfUser(holder.id)?.id ?? null)
            : (names.branch(holder.id)?.name ?? `branch #${holder.id}`);
        const base = { kind: 'raaf_due' as const, subject, period: month, link };
        const due = thresholds.raaf_due_day > 0 ? ` It was due by the ${ordinal(thresholds.raaf_due_day)}.` : '';
        for (const recipientUserId of certifiers(people, holder)) {
          items.push({
            ...base,
            recipientUserId,
            level: 0,
            title: `RAAF for ${monthText(month)} ready to certify${holder.type === 'branch' ? `: ${name}` : ''}`,
            body: `The RAAF of ${name} for ${monthText(month)} is not certified yet.${due} Open it, check it and certify it.`,
          });
        }
        if (!escalated) continue;
        for (const recipientUserId of accounting) {
          items.push({
            ...base,
            recipientUserId,
            level: 1,
            title: `RAAF for ${monthText(month)} not certified: ${name}`,
            body: `${name} has not certified the RAAF for ${monthText(month)}; RAAFs go to the auditor by the 5th.`,
          });
        }
      }
    }
    return items;
  },
};
