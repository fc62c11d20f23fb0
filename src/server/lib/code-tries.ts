import { CODE_MSG } from '../../shared/custody-rules.ts';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';

/** Wrong badge or label codes one signed-in user may send in CODE_TRIES_WINDOW_MS, over every route that takes one. */
export const CODE_TRIES_PER_USER = 10;
/** Wrong codes from one client address in the window: a branch's staff behind one address share it. */
export const CODE_TRIES_PER_ADDRESS = 30;
export const CODE_TRIES_WINDOW_MS = 15 * 60_000;

/** Who sends a code: the signed-in user and the client's address (request.ip, so TRUST_PROXY decides it). */
export interface CodeScanner {
  userId: number;
  address: string;
}

/** A badge or label code that is well formed but not right: the refusal the client gets, and the code's claim for the log. */
export class WrongCode extends Error {
  constructor(
    readonly refusal: AppError,
    readonly claimed: { userId?: number; padId?: number },
  ) {
    super(refusal.message);
  }
}

const tooMany = (retryAfterMs: number) => {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new AppError('too_many', CODE_MSG.tooManyWrong(Math.ceil(seconds / 60)), 429, undefined, seconds);
};

/**
 * Runs an action that checks a scanned badge or label code under one budget shared by every such route (docs/SECURITY.md):
 * a badge's check has a million values, so without it a counter or a courier could guess someone's badge. The try is
 * counted against the user and the address before the code is judged and given back when the action does not end in
 * WrongCode; over either budget the answer is 429 with Retry-After, a right code included, and a right code never
 * clears the count, so one's own badge cannot reset it. The try that uses up a budget is logged with who and whom.
 */
export async function withCodeTries<T>(ctx: AppContext, scanner: CodeScanner, run: () => Promise<T>): Promise<T> {
  const budgets = [
    { key: `user:${scanner.userId}`, budget: ctx.shared.tries('code-user', CODE_TRIES_PER_USER, CODE_TRIES_WINDOW_MS) },
    { key: `address:${scanner.address}`, budget: ctx.shared.tries('code-address', CODE_TRIES_PER_ADDRESS, CODE_TRIES_WINDOW_MS) },
  ];
  const taken: Array<{ left: number; giveBack: () => Promise<void> }> = [];
  for (const { key, budget } of budgets) {
    const answer = await budget.take(key);
    if ('retryAfterMs' in answer) {
      for (const done of taken) await done.giveBack();
      throw tooMany(answer.retryAfterMs);
    }
    taken.push(answer);
  }
  try {
    const result = await run();
    for (const done of taken) await done.giveBack();
    return result;
  } catch (error) {
    if (!(error instanceof WrongCode)) {
      for (const done of taken) await done.giveBack();
      throw error;
    }
    if (taken.some((done) => done.left === 0))
      ctx.log.warn(
        { actorId: scanner.userId, address: scanner.address, claimed: error.claimed, windowMinutes: CODE_TRIES_WINDOW_MS / 60_000 },
        'badge and label codes locked: too many wrong codes',
      );
    throw error.refusal;
  }
}
