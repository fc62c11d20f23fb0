import { IDEMPOTENCY_MSG } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import { conflict } from '../../lib/errors.ts';
import * as repo from './repo.ts';

export interface Answer<T, S extends number = number> {
  status: S;
  body: T;
}

/**
 * docs/design.md §4 idempotency: runs an action a device may send again (a queued action whose answer was lost)
 * once per Idempotency-Key. The key is claimed, the action run and its answer stored in one transaction, so a
 * duplicate, even a parallel one, waits for the first and gets its stored answer; an action refused (4xx) rolls
 * back with its key, and its retry is decided afresh. Without a key the action just runs.
 */
export async function idempotent<T, S extends number>(
  ctx: AppContext,
  userId: number,
  key: string | undefined,
  operation: string,
  run: (ctx: AppContext) => Promise<Answer<T, S>>,
): Promise<Answer<T, S>> {
  if (!key) return run(ctx);
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.claimKey(tx, userId, key, operation))) {
      const stored = await repo.findAnswer(tx, userId, key);
      if (!stored || stored.operation !== operation) throw conflict(IDEMPOTENCY_MSG.reused);
      return { status: stored.status as S, body: stored.answer as T };
    }
    const answer = await run({ ...ctx, db: tx });
    await repo.storeAnswer(tx, userId, key, answer.status, answer.body);
    return answer;
  });
}
