import { documentTimeText } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import { RESOLUTION_LABELS, countItemStateLabel } from '../../../shared/schemas/counts.ts';
import type { AppContext } from '../../context.ts';
import { renderCountCertificatePdf, type CertificatePerson } from '../../lib/pdf/count-certificate-pdf.ts';
import { readable, sessionDto, variancesOf } from './read-model.ts';
import { frozenIdentity } from '../settings/lifecycle.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import { signers } from '../users/read-model.ts';
import * as repo from './repo.ts';

/** The count certificate: who counted, whom, when, the pads counted, the variances and how each was resolved. */
export async function certificate(ctx: AppContext, actor: Actor, id: number): Promise<Buffer> {
  const s = await readable(ctx, actor, id);
  const count = await sessionDto(ctx.db, s);
  const [items, resolutions] = await Promise.all([repo.items(ctx.db, s.id), repo.resolutions(ctx.db, s.id)]);
  const incidents = new Map(resolutions.map((r) => [r.item_id, r.incident_number]));
  const zone = ctx.config.timeZone;
  const holderId = count.holder.type === 'user' ? count.holder.id : null;
  const [operator, people] = await Promise.all([
    count.status === 'closed' ? frozenIdentity(ctx.db, 'count_certificate', count.id) : operatorIdentity(ctx.db),
    signers(ctx.db, [count.counter.id, count.signed_off_by?.id ?? 0, holderId ?? 0]),
  ]);
  const personOf = (id: number | null): CertificatePerson => {
    const signer = id === null ? undefined : people.get(id);
    return { name: signer?.full_name ?? '', position: [signer?.position, signer?.branch].filter(Boolean).join(', ') };
  };
  const signerId = count.signed_off_by?.id ?? holderId;
  return renderCountCertificatePdf({
    operator,
    id: count.id,
    status: count.status,
    holder: `${count.holder.type === 'branch' ? 'Branch ' : ''}${count.holder.name}`,
    counter: personOf(count.counter.id),
    signer: signerId === null ? { name: '', position: `Branch Custodian or Branch Head, ${count.holder.name}` } : personOf(signerId),
    startedAt: documentTimeText(count.started_at, zone),
    closedAt: count.closed_at ? documentTimeText(count.closed_at, zone) : null,
    signedOffAt: count.signed_off_by ? documentTimeText(count.signed_off_at ?? count.started_at, zone) : null,
    printedAt: documentTimeText(new Date(), zone),
    signaturePng: s.signature ? Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64') : null,
    pads: count.items.map((item) => ({
      route: item.pad.route.name,
      padNumber: item.pad.number,
      series: item.pad.series_number,
      state: countItemStateLabel(item),
      firstUnused: item.first_unused === null ? '-' : String(item.first_unused),
      books: item.book_next_number === null ? 'none left' : String(item.book_next_number),
    })),
    variances: variancesOf(s, items, resolutions).map((v) => ({
      pad: `Pad ${v.pad.number} (${v.pad.route.name})`,
      kind: v.label,
      detail: v.detail,
      resolution: v.resolution
        ? `${RESOLUTION_LABELS[v.resolution.action]}${incidents.get(v.id) ? ` ${incidents.get(v.id)}` : ''}: ${v.resolution.reason} (${v.resolution.resolved_by.full_name})`
        : 'Not resolved',
    })),
  });
}
