import { dayTimeText } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import { RESOLUTION_LABELS } from '../../../shared/schemas/counts.ts';
import type { AppContext } from '../../context.ts';
import { renderCountCertificatePdf } from '../../lib/pdf/count-certificate-pdf.ts';
import { readable, sessionDto, variancesOf } from './read-model.ts';
import * as repo from './repo.ts';

/** The count certificate: who counted, whom, when, the pads counted, the variances and how each was resolved. */
export async function certificate(ctx: AppContext, actor: Actor, id: number): Promise<Buffer> {
  const s = await readable(ctx, actor, id);
  const count = await sessionDto(ctx.db, s);
  const [items, resolutions] = await Promise.all([repo.items(ctx.db, s.id), repo.resolutions(ctx.db, s.id)]);
  const incidents = new Map(resolutions.map((r) => [r.item_id, r.incident_number]));
  const zone = ctx.config.timeZone;
  return renderCountCertificatePdf({
    id: count.id,
    status: count.status,
    holder: `${count.holder.type === 'branch' ? 'Branch ' : ''}${count.holder.name}`,
    counter: count.counter.full_name,
    startedAt: dayTimeText(new Date(count.started_at), zone),
    closedAt: count.closed_at ? dayTimeText(new Date(count.closed_at), zone) : null,
    signedOff: count.signed_off_by
      ? `${count.signed_off_by.full_name}, ${dayTimeText(new Date(count.signed_off_at ?? count.started_at), zone)}`
      : null,
    signaturePng: s.signature ? Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64') : null,
    pads: count.items.map((item) => ({
      route: item.pad.route.name,
      padNumber: item.pad.number,
      series: item.pad.series_number,
      state:
        item.state === 'found'
          ? item.expected
            ? 'Found'
            : 'Found (not on the books here)'
          : item.state === 'missing'
            ? 'Missing'
            : 'Not found',
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
