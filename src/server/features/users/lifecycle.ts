import type { Conn } from '../../db/client.ts';
import * as repo from './repo.ts';

/**
 * docs/design.md §10: an opening-balance import adds people as user rows in its own transaction; the import mails each
 * a set-password link afterwards, so the row carries what the import decided (status, an unusable password).
 */
export async function insert(tx: Conn, values: Parameters<typeof repo.insert>[1]): Promise<number> {
  return repo.insert(tx, values);
}
