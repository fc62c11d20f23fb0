import { expect } from 'vitest';
import type { Db } from '../db/client.ts';
import { verifyLedger } from '../features/ledger/verifier.ts';

/** Any feature's test may ask the ledger's verifier whether the whole database still folds (docs/design.md §8). */
export async function expectLedgerVerified(db: Db): Promise<void> {
  expect((await verifyLedger(db)).problems).toEqual([]);
}
