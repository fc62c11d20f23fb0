import { can, type Action, type Actor, type SubjectOf } from '../../shared/permissions.ts';
import { forbidden } from './errors.ts';

/**
 * The server's way to enforce an object rule of src/shared/permissions.ts: the same `can()` the menu and
 * buttons ask, throwing the 403 (with the given message) when it says no, so services never re-word a rule.
 */
export function assertCan<A extends Action>(actor: Actor, action: A, thing?: SubjectOf<A>, message?: string): void {
  if (!can(actor, action, thing)) throw forbidden(message);
}
