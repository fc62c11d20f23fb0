import { CODE_MSG } from '../../shared/custody-rules.ts';
import type { AppContext } from '../context.ts';
import type { TakenTry } from '../db/shared-state.ts';
import { AppError } from './errors.ts';

/** Wrong badge or label codes one signed-in user may send in CODE_TRIES_WINDOW_MS, over every route that takes one. */
export const CODE_TRIES_PER_USER = 10;
/** Wrong codes from one client address in the window: a branch's staff behind one address share it. */
export const CODE_TRIES_PER_ADDRESS = 30;
export const CODE_TRIES_WINDOW_MS = 15 * 60_000;
/** Tries being judged at once beyond the failures left: twenty phones of one counter scanning together still pass. */
export const CODE_TRIES_IN_FLIGHT = 20;

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
 * held against the user and the address while it is judged, so parallel guesses meet the limit together; a wrong code
 * becomes a failure, a right one costs nothing and clears nothing, so one's own badge cannot reset the count. With the
 * failures spent the answer is 429 with Retry-After, a right code included. The failure that spends a budget is logged
 * with the scanner and the badge or label it claimed.
 */
export async function withCodeTries<T>(ctx: AppContext, scanner: CodeScanner, run: () => Promise<T>): Promise<T> {
  const budgets = [
    { key: `user:${scanner.userId}`, limits: { max: CODE_TRIES_PER_USER, inFlight: CODE_TRIES_IN_FLIGHT, windowMs: CODE_TRIES_WINDOW_MS } },
    {
      key: `address:${scanner.address}`,
      limits: { max: CODE_TRIES_PER_ADDRESS, inFlight: CODE_TRIES_IN_FLIGHT, windowMs: CODE_TRIES_WINDOW_MS },
    },
  ];
  const taken: TakenTry[] = [];
  const giveBackAll = async () => {
    for (const done of taken) await done.giveBack();
  };
  for (const [i, { key, limits }] of budgets.entries()) {
    const answer = await ctx.shared.tries(`code-${i === 0 ? 'user' : 'address'}`, limits).take(key);
    if ('retryAfterMs' in answer) {
      await giveBackAll();
      throw tooMany(answer.retryAfterMs);
    }
    taken.push(answer);
  }
  let result: T;
  try {
    result = await run();
  } catch (error) {
    if (!(error instanceof WrongCode)) {
      await giveBackAll();
      throw error;
    }
    const counted: Array<{ within: boolean; left: number }> = [];
    for (const done of taken) counted.push(await done.fail());
    if (counted.some((c) => !c.within)) throw tooMany(CODE_TRIES_WINDOW_MS);
    if (counted.some((c) => c.left === 0))
      ctx.log.warn(
        { actorId: scanner.userId, address: scanner.address, claimed: error.claimed, windowMinutes: CODE_TRIES_WINDOW_MS / 60_000 },
        'badge and label codes locked: too many wrong codes',
      );
    throw error.refusal;
  }
  await giveBackAll();
  return result;
}
