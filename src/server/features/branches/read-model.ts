import { inArray } from 'drizzle-orm';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { branches } from '../../db/schema/reference.ts';

/** The names of these branches, for lists that show a person's or a pad's branch. */
export async function branchNames(conn: Conn, ids: number[]): Promise<NamedRef[]> {
  if (ids.length === 0) return [];
  return conn.select({ id: branches.id, name: branches.name }).from(branches).where(inArray(branches.id, ids));
}
