import { can, raafScope, type Actor } from '../../../shared/permissions.ts';
import type { HolderParam } from './api.ts';

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const HOLDER = /^[ubr]:\d+$/;
/** `r:B` in the holder parameter: the branch roll-up of branch B. */
export const ROLLUP = 'r:';

export const holderValue = (holder: HolderParam) => ('user_id' in holder ? `u:${holder.user_id}` : `b:${holder.branch_id}`);
export const reportHolderValue = (holder: { type: 'user' | 'branch'; id: number }) => `${holder.type === 'user' ? 'u' : 'b'}:${holder.id}`;
export const holderParam = (value: string): HolderParam =>
  value.startsWith('u:') ? { user_id: Number(value.slice(2)) } : { branch_id: Number(value.slice(2)) };

export interface HolderOption {
  value: string;
  label: string;
}

export interface HolderGroup {
  group: string;
  items: HolderOption[];
}

/** A person the picker may offer (get-users-by-roles). */
export interface PersonChoice {
  id: number;
  full_name: string;
  branch_id: number | null;
  branch: { name: string } | null;
}

/**
 * Whose RAAF the user may pick (docs/design.md §8, `raafScope`): their own; anyone for roles 1, 2, 3, 8, 9; their
 * branch's stock and its people for roles 4-6. Everyone allowed is offered, not only those who held forms in the month;
 * `extra` adds the holders the server already named (the consolidated view, the report shown).
 */
export function holderOptionGroups(
  user: Actor & { full_name: string },
  people: readonly PersonChoice[],
  branches: ReadonlyArray<{ id: number; name: string }>,
  extra: readonly HolderOption[],
): HolderGroup[] {
  const scope = raafScope(user);
  const inScope = (branchId: number | null) => scope.all || (scope.branchId !== null && branchId === scope.branchId);
  const mine = `u:${user.id}`;
  const seen = new Set([mine]);
  const persons: HolderOption[] = [];
  for (const person of people) {
    const value = `u:${person.id}`;
    if (seen.has(value) || !inScope(person.branch_id)) continue;
    seen.add(value);
    persons.push({ value, label: person.branch ? `${person.full_name} (${person.branch.name})` : person.full_name });
  }
  const stocks: HolderOption[] = [];
  for (const branch of branches) {
    const value = `b:${branch.id}`;
    if (!inScope(branch.id)) continue;
    seen.add(value);
    stocks.push({ value, label: `${branch.name} (branch stock)` });
  }
  for (const option of extra) {
    if (seen.has(option.value)) continue;
    seen.add(option.value);
    (option.value.startsWith('u:') ? persons : stocks).push(option);
  }
  const byLabel = (a: HolderOption, b: HolderOption) => a.label.localeCompare(b.label);
  return [
    { group: 'Me', items: [{ value: mine, label: `${user.full_name} (me)` }] },
    ...(persons.length > 0 ? [{ group: 'People', items: persons.sort(byLabel) }] : []),
    ...(stocks.length > 0 ? [{ group: 'Branch stock', items: stocks.sort(byLabel) }] : []),
  ];
}

/** Whether the picker offers more than the user's own RAAF: everyone's, or their branch's (`raafScope`). */
export function seesOthers(user: Actor | undefined): boolean {
  if (!user) return false;
  const scope = raafScope(user);
  return scope.all || scope.branchId !== null;
}

/**
 * The holder Accountability opens on when the address names none: the viewer's own RAAF if they hold any pad now,
 * else their branch (its roll-up when they may read it, else its stock when they may), else their own; undefined
 * while it is being found out.
 */
export function openingHolder(user: Actor | undefined, holdsPads: boolean | undefined): string | undefined {
  if (!user) return undefined;
  const own = `u:${user.id}`;
  if (user.branch_id === null) return own;
  if (holdsPads === undefined) return undefined;
  if (holdsPads) return own;
  if (can(user, 'raaf.rollup', { branch_id: user.branch_id })) return `${ROLLUP}${user.branch_id}`;
  if (can(user, 'raaf.read', { type: 'branch', id: user.branch_id, branch_id: user.branch_id })) return `b:${user.branch_id}`;
  return own;
}

/** Whether the user may open some branch's roll-up: any branch's (`raafScope` all), else their own when they may. */
export function rollupReach(user: Actor | undefined): { any: boolean; own: boolean } {
  if (!user) return { any: false, own: false };
  return { any: raafScope(user).all, own: user.branch_id !== null && can(user, 'raaf.rollup', { branch_id: user.branch_id }) };
}
