import { createHash } from 'node:crypto';
import type { Conn } from '../../db/client.ts';
import * as repo from './repo.ts';

export interface CertificateProblem {
  certificate_id: number;
  certificate: string;
  message: string;
}

type Certified = Pick<
  repo.CertificateRow,
  'number' | 'month' | 'holder_type' | 'holder_id' | 'report_json' | 'pad_hashes' | 'pdf' | 'certified_by' | 'certified_at'
>;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * SHA-256 over everything a holder certified (not the review, which comes later). Migration 0006 computes
 * the same text in SQL for certificates made before it, so keep the two in step.
 */
export function certificateContentHash(row: Certified): string {
  return sha256(
    [
      row.number,
      row.month,
      row.holder_type,
      row.holder_id,
      sha256(row.report_json),
      sha256(row.pad_hashes),
      sha256(row.pdf),
      row.certified_by,
      row.certified_at.getTime(),
    ].join('|'),
  );
}

function frozenHeads(padHashes: string): Array<[number, number, string]> | null {
  try {
    const parsed: unknown = JSON.parse(padHashes);
    if (!Array.isArray(parsed)) return null;
    const heads = parsed.filter(
      (item): item is [number, number, string] =>
        Array.isArray(item) && Number.isInteger(item[0]) && Number.isInteger(item[1]) && typeof item[2] === 'string',
    );
    return heads.length === parsed.length ? heads : null;
  } catch {
    return null;
  }
}

const PAGE = 50;

/**
 * docs/design.md §8 anchors the chains in the certificates: each certificate must still hash to its content, and
 * every pad it covers must still hold, at the frozen position, the event whose hash it froze. A chain cut
 * back (its last events deleted and the pad row set back) folds cleanly on its own; only this finds it.
 */
export async function verifyCertificates(conn: Conn): Promise<{ certificates: number; problems: CertificateProblem[] }> {
  const problems: CertificateProblem[] = [];
  let count = 0;
  let afterId = 0;
  for (;;) {
    const rows = await repo.certificatesAfter(conn, afterId, PAGE);
    if (rows.length === 0) break;
    const heads = new Map(rows.map((row) => [row.id, frozenHeads(row.pad_hashes)]));
    const found = await repo.eventHashesAt(
      conn,
      [...heads.values()].flatMap((list) => (list ?? []).map(([padId, seq]): [number, number] => [padId, seq])),
    );
    for (const row of rows) {
      const say = (message: string) =>
        problems.push({
          certificate_id: row.id,
          certificate: `certificate ${row.number} (${row.holder_type} ${row.holder_id}, ${row.month})`,
          message,
        });
      if (certificateContentHash(row) !== row.content_hash) say('was altered: its content does not match its hash');
      const list = heads.get(row.id);
      if (!list) {
        say('has unreadable frozen pad hashes');
        continue;
      }
      for (const [padId, seq, hash] of list) {
        const now = found.get(`${padId}:${seq}`);
        if (now === undefined) say(`froze event seq ${seq} of pad ${padId}, which is no longer in the ledger: the chain was cut back`);
        else if (now !== hash)
          say(`froze event seq ${seq} of pad ${padId} with another hash than the ledger holds now: the chain was rewritten`);
      }
    }
    count += rows.length;
    afterId = rows[rows.length - 1].id;
  }
  return { certificates: count, problems };
}
