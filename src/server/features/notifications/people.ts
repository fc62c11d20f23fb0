import { ROLE } from '../../../shared/lookups.ts';
import type { AlertPerson } from '../users/read-model.ts';

/** Everyone once per alert run: evaluators pick recipients from it, and the framework finds a deactivated user's stand-in. */
export class People {
  private readonly byId: Map<number, AlertPerson>;

  constructor(readonly all: AlertPerson[]) {
    this.byId = new Map(all.map((person) => [person.id, person]));
  }

  get(id: number): AlertPerson | undefined {
    return this.byId.get(id);
  }

  /** The active users of these roles (Accounting, the Custodian, Admin …). */
  withRoles(roles: readonly number[]): AlertPerson[] {
    return this.all.filter((person) => person.active && person.role_id !== null && roles.includes(person.role_id));
  }

  /** The active Branch Heads of a branch. */
  branchHeads(branchId: number | null): AlertPerson[] {
    if (branchId === null) return [];
    return this.all.filter((person) => person.active && person.role_id === ROLE.BRANCH_HEAD && person.branch_id === branchId);
  }

  /** Who gets a user's alerts: the user while active, else their branch's heads (none for a user without a branch). */
  standIns(userId: number): AlertPerson[] {
    const person = this.byId.get(userId);
    if (!person) return [];
    if (person.active) return [person];
    return this.branchHeads(person.branch_id).filter((head) => head.id !== userId);
  }
}
