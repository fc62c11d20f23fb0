import { createHash } from 'node:crypto';
import { IDEMPOTENCY_MSG } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import { conflict, invalid } from '../../lib/errors.ts';
import * as repo from './repo.ts';

export interface Answer<T, S extends number = number> {
  status: S;
  body: T;
}

/** The request a key stands for: its action (with the record it acts on) and its validated input. */
export interface KeyedRequest {
  method: string;
  /** The action and its target, such as `usage:17`; a key never moves to another one. */
  operation: string;
  /** The validated body, path parameters included, compared by content whatever the order of its keys. */
  input: unknown;
}

/** JSON with every object's keys sorted, so two equal inputs give one text however they were built. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const fingerprintOf = (request: KeyedRequest) =>
  createHash('sha256')
    .update(canonicalJson([request.method, request.operation, request.input]))
    .digest('hex');

/**
 * docs/design.md §4 idempotency: runs an action a device may send again (a queued action whose answer was lost)
 * once per Idempotency-Key. The key is claimed with the request's fingerprint, the action run and its answer stored
 * in one transaction, so a duplicate, even a parallel one, waits for the first and gets its stored answer; the key
 * sent with another body is refused (422) rather than answered with the old action's result, which would tell the
 * device its new action was recorded when it was not. An action refused (4xx) rolls back with its key, and its
 * retry is decided afresh. Without a key the action just runs.
 */
export async function idempotent<T, S extends number>(
  ctx: AppContext,
  userId: number,
  key: string | undefined,
  request: KeyedRequest,
  run: (ctx: AppContext) => Promise<Answer<T, S>>,
): Promise<Answer<T, S>> {
  if (!key) return run(ctx);
  const fingerprint = fingerprintOf(request);
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.claimKey(tx, userId, key, request.operation, fingerprint))) {
      const stored = await repo.findAnswer(tx, userId, key);
      if (!stored || stored.operation !== request.operation) throw conflict(IDEMPOTENCY_MSG.reused);
      // A key stored before fingerprints were kept (null) is answered as before: its request cannot be compared.
      if (stored.fingerprint !== null && stored.fingerprint !== fingerprint)
        throw invalid('idempotency-key', IDEMPOTENCY_MSG.otherRequest(key));
      // -- the stored status and answer were written by this same route from its S and T, under this key and fingerprint.
      return { status: stored.status as S, body: stored.answer as T };
    }
    const answer = await run({ ...ctx, db: tx });
    await repo.storeAnswer(tx, userId, key, answer.status, answer.body);
    return answer;
  });
}
