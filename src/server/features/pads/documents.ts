import { isPadLabel } from '../../../shared/custody-rules.ts';
import { COUNT_MSG } from '../../../shared/schemas/counts.ts';
import { operatorShortName } from '../../../shared/schemas/operator-identity.ts';
import { PAD_MSG, type Pad } from '../../../shared/schemas/pads.ts';
import type { AppContext } from '../../context.ts';
import { withCodeTries, WrongCode, type CodeScanner } from '../../lib/code-tries.ts';
import { notFound } from '../../lib/errors.ts';
import { encodePadLabel, padIdFromLabel } from '../../lib/pad-label.ts';
import { renderPadLabelsPdf } from '../../lib/pdf/pad-labels-pdf.ts';
import { qrPng } from '../../lib/qr.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import * as repo from './repo.ts';

/** docs/design.md §9 labels: the label sheet of the chosen pads under the operator's name, each QR holding the pad's signed label code. */
export async function labelSheet(ctx: AppContext, ids: number[], size: 'a4' | '4x6'): Promise<Buffer> {
  const found = await repo.padsWithIds(ctx.db, ids);
  if (found.length !== ids.length) throw notFound(PAD_MSG.notFound);
  const labels = await Promise.all(
    found.map(async (pad) => {
      const code = encodePadLabel(ctx.badgeSecret, pad.id);
      return { route: pad.route.name, padNumber: pad.number, series: pad.series_number, code, qrPng: await qrPng(code) };
    }),
  );
  return renderPadLabelsPdf(labels, size, operatorShortName(await operatorIdentity(ctx.db)));
}

/**
 * A scanned label to its pad; a forged, altered or unknown code is a 404, never a near miss, and one shaped like a label
 * but not signed here counts against the scanner's budget of badge and label codes (lib/code-tries.ts).
 */
export async function padByLabel(ctx: AppContext, scanner: CodeScanner, code: string): Promise<Pad> {
  if (!isPadLabel(code)) throw notFound(COUNT_MSG.labelUnknown);
  const padId = await withCodeTries(ctx, scanner, async () => {
    const signed = padIdFromLabel(ctx.badgeSecret, code);
    if (signed === null) throw new WrongCode(notFound(COUNT_MSG.labelUnknown), {});
    return signed;
  });
  const pad = await repo.findPad(ctx.db, padId);
  if (!pad) throw notFound(COUNT_MSG.labelUnknown);
  return pad;
}

/** The pad id of a scanned label, or null when the code is not one; for features that record a scan. */
export const labelPadId = (ctx: AppContext, code: string): number | null => padIdFromLabel(ctx.badgeSecret, code);
