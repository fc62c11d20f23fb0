import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { recordUse, undoUses, type PaperUsePad } from './paper-uses.ts';

/**
 * Issue 38, the pads' face of the outages feature: every usage of paper numbers passes here in its own transaction. At a
 * covered establishment after go-live it is linked to its outage or opens an exception, and a regular or retired series
 * is refused (409); elsewhere nothing happens. Skipped numbers a usage cancels are not paper uses: pass only the used range.
 */
export async function recordPaperUse(
  tx: Conn,
  ctx: Pick<AppContext, 'config' | 'ledgerClock'>,
  input: { pad: PaperUsePad; from: number; to: number; usedAt: Date | null; actorId: number },
): Promise<void> {
  await recordUse(tx, ctx, input);
}

/** Usage of from..to undone (numbers unmarked): the paper uses holding them drop out of exceptions and the summary. */
export async function undoPaperUse(
  tx: Conn,
  ctx: Pick<AppContext, 'ledgerClock'>,
  input: { padId: number; from: number; to: number },
): Promise<void> {
  await undoUses(tx, ctx, input);
}
