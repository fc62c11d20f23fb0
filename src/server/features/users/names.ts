import { fullName } from '../../../shared/format.ts';
import type { Conn } from '../../db/client.ts';
import * as branches from '../branches/repo.ts';
import * as repo from './repo.ts';

/** Names of the people and branches a set of events, remarks or certificates mention, looked up once. */
export class Names {
  private users = new Map<number, repo.PersonRow>();
  private branches = new Map<number, string>();

  static async load(conn: Conn, userIds: Array<number | null>, branchIds: Array<number | null>): Promise<Names> {
    const names = new Names();
    const wantUsers = [...new Set(userIds.filter((id): id is number => id !== null))];
    for (const person of await repo.people(conn, wantUsers)) names.users.set(person.id, person);
    const wantBranches = [
      ...new Set([...branchIds, ...[...names.users.values()].map((u) => u.branch_id)].filter((id): id is number => id !== null)),
    ];
    for (const branch of await branches.names(conn, wantBranches)) names.branches.set(branch.id, branch.name);
    return names;
  }

  person(id: number | null) {
    const row = id === null ? undefined : this.users.get(id);
    return row ? { id: row.id, full_name: fullName(row) } : null;
  }

  branch(id: number | null) {
    const name = id === null ? undefined : this.branches.get(id);
    return name === undefined || id === null ? null : { id, name };
  }

  branchOfUser(id: number) {
    return this.branch(this.users.get(id)?.branch_id ?? null);
  }

  /** "Ana Cruz (Batangas)" for a user, "Batangas" for a branch's own stock. */
  holderText(userId: number | null, branchId: number | null): string {
    if (userId !== null) {
      const person = this.person(userId);
      const branch = this.branch(branchId);
      return `${person?.full_name ?? `user #${userId}`}${branch ? ` (${branch.name})` : ''}`;
    }
    return this.branch(branchId)?.name ?? (branchId === null ? 'no holder' : `branch #${branchId}`);
  }
}
