import type { Conn } from '../../db/client.ts';
import { openExceptions, openExceptionsInMonth, type ExceptionListRow } from './paper-use-repo.ts';

/**
 * Issue 38: the open paper-use exceptions of a RAAF's holder (a user, or a branch for the pads it holds itself) with a
 * business date in the month, and the first number among them; certification waits until they are decided.
 */
export async function openExceptionsOf(
  conn: Conn,
  holder: { type: 'user' | 'branch'; id: number },
  month: string,
): Promise<{ count: number; first: number | null }> {
  return openExceptionsInMonth(conn, holder, month);
}

export type OpenException = ExceptionListRow;

/** The open exceptions, newest first, up to `limit`; each row carries the total (Needs my action). */
export async function exceptionQueue(conn: Conn, limit: number): Promise<OpenException[]> {
  return openExceptions(conn, limit);
}
