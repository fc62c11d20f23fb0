import { randomBytes } from 'node:crypto';
import { guardedUserChanges, type GuardedUserFields } from '../../../shared/custody-rules.ts';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import { ADMIN_MSG, MSG } from '../../../shared/messages.ts';
import type { NamedRef, Paginated } from '../../../shared/schemas/common.ts';
import { operatorShortName } from '../../../shared/schemas/operator-identity.ts';
import { USER_LABELS, type AdminUser, type AssignableUser, type UsersQuery } from '../../../shared/schemas/users.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { encodeBadge } from '../../lib/badge.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../lib/errors.ts';
import type { RowSource } from '../../lib/export.ts';
import { paginated } from '../../lib/pagination.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { renderBadgePdf } from '../../lib/pdf/badge-pdf.ts';
import { qrPng } from '../../lib/qr.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import { sendSetPasswordLink } from '../accounts/lifecycle.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import { badgeVersion } from './read-model.ts';
import * as repo from './repo.ts';
import type { UserValues } from './repo.ts';

const NOT_FOUND = 'User not found.';

/** The Users screen's list: name-or-email search and Role filter in SQL. */
export async function list(ctx: AppContext, q: UsersQuery): Promise<Paginated<AdminUser>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** docs/design.md §10 Export: every user of the Users list for this search and role, in batches. */
export function listSource(ctx: AppContext, q: UsersQuery): RowSource<AdminUser> {
  return (write) => repo.streamList(ctx.db, q, write);
}

export async function get(ctx: AppContext, id: number): Promise<AdminUser> {
  const user = await repo.find(ctx.db, id);
  if (!user) throw notFound(NOT_FOUND);
  return user;
}

/** Active users of some roles: only they may be given pads to carry. */
export async function byRoles(ctx: AppContext, roleIds: number[]): Promise<AssignableUser[]> {
  return repo.activeByRoles(ctx.db, roleIds);
}

/** The Status select's options (seeded lookup). */
export async function statuses(ctx: AppContext): Promise<NamedRef[]> {
  return repo.statusList(ctx.db);
}

async function checkInput(conn: Conn, input: UserValues, userId: number | null): Promise<void> {
  if (await repo.emailTaken(conn, input.email, userId)) throw invalid('email', MSG.emailTaken);
  const found = await repo.refsExist(conn, input);
  if (!found.branch) throw invalid('branch_id', ADMIN_MSG.selectedInvalid(USER_LABELS.branch_id));
  if (!found.role) throw invalid('role_id', ADMIN_MSG.selectedInvalid(USER_LABELS.role_id));
  if (!found.status) throw invalid('user_status_id', ADMIN_MSG.selectedInvalid(USER_LABELS.user_status_id));
}

/** Refuses (409) a change the custody guards forbid while the user holds pads or carries an in-transit invoice (docs/design.md §10). */
async function guardCustody(conn: Conn, id: number, before: GuardedUserFields, after: GuardedUserFields | null): Promise<void> {
  const [change] = guardedUserChanges(before, after);
  if (!change) return;
  const held = await repo.custodyHeld(conn, id);
  if (held.pads.length > 0 || held.invoices.length > 0) throw conflict(ADMIN_MSG.custodyHeld(change, held.pads, held.invoices));
}

/**
 * An administrator creates a staff account with a first password, which the user must change at first sign-in, or with
 * none the administrator knows: then the user gets a link to set one (docs/design.md §5).
 */
export async function create(
  ctx: AppContext,
  input: UserValues & { password: string; send_set_password_email: boolean },
): Promise<AdminUser> {
  const { password, send_set_password_email: mailLink, ...values } = input;
  const passwordHash = await hashPassword(mailLink ? randomBytes(24).toString('base64url') : password);
  const user = await ctx.db.transaction(async (tx) => {
    await checkInput(tx, values, null);
    const id = await repo.insert(tx, { ...values, password_hash: passwordHash, must_change_password: !mailLink });
    const created = await repo.find(tx, id);
    if (!created) throw notFound(NOT_FOUND);
    return created;
  });
  if (mailLink) await sendSetPasswordLink(ctx, user);
  return user;
}

/** Changes a user's details; setting them Inactive ends their sessions, and nobody changes their own role or status. */
export async function update(ctx: AppContext, actor: AuthUser, id: number, input: UserValues): Promise<AdminUser> {
  return ctx.db.transaction(async (tx) => {
    await repo.lockForChange(tx, id);
    const before = await repo.find(tx, id);
    if (!before) throw notFound(NOT_FOUND);
    if (id === actor.id && input.role_id !== before.role_id) throw invalid('role_id', ADMIN_MSG.cannotChangeOwnRole);
    if (id === actor.id && input.user_status_id !== before.user_status_id) throw invalid('user_status_id', ADMIN_MSG.cannotChangeOwnStatus);
    await checkInput(tx, input, id);
    await guardCustody(tx, id, before, input);
    await repo.update(tx, id, input);
    if (input.user_status_id !== USER_STATUS.ACTIVE) await repo.deleteTokens(tx, id);
    const user = await repo.find(tx, id);
    if (!user) throw notFound(NOT_FOUND);
    return user;
  });
}

/** Only users without history can go; anyone history names is deactivated instead (docs/design.md §5). */
export async function remove(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  if (id === actor.id) throw conflict(ADMIN_MSG.cannotDeleteSelf);
  await ctx.db.transaction(async (tx) => {
    await repo.lockForChange(tx, id);
    const before = await repo.find(tx, id);
    if (!before) throw notFound(NOT_FOUND);
    await guardCustody(tx, id, before, null);
    const counts = await repo.usage(tx, id);
    const used = countPhrase([
      [counts.invoices, 'invoice', 'invoices'],
      [counts.activities, 'invoice activity', 'invoice activities'],
      [counts.pads, 'pad', 'pads'],
      [counts.reports, 'report', 'reports'],
    ]);
    if (used)
      throw conflict(
        `${used.text} ${used.plural ? 'name' : 'names'} this user, so the user cannot be deleted. Deactivate the user instead.`,
      );
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503')
        throw conflict('History names this user, so the user cannot be deleted. Deactivate the user instead.');
      throw error;
    }
  });
}

/** Flips Active/Inactive; deactivation ends every session of that user at once. */
export async function toggleActivation(ctx: AppContext, actor: AuthUser, id: number): Promise<{ message: string; data: AdminUser }> {
  if (id === actor.id) throw conflict(ADMIN_MSG.cannotDeactivateSelf);
  return ctx.db.transaction(async (tx) => {
    await repo.lockForChange(tx, id);
    const before = await repo.find(tx, id);
    if (!before) throw notFound(NOT_FOUND);
    if (before.user_status_id === USER_STATUS.ACTIVE)
      await guardCustody(tx, id, before, { ...before, user_status_id: USER_STATUS.INACTIVE });
    const status = await repo.toggleStatus(tx, id);
    if (status === undefined) throw notFound(NOT_FOUND);
    if (status !== USER_STATUS.ACTIVE) await repo.deleteTokens(tx, id);
    const user = await repo.find(tx, id);
    if (!user) throw notFound(NOT_FOUND);
    return { message: status === USER_STATUS.ACTIVE ? ADMIN_MSG.userActivated : ADMIN_MSG.userDeactivated, data: user };
  });
}

const badgeSubject = (id: number) => `badge:${id}`;

/** Admins print a user's badge card in a new tab, which carries no bearer token: the address is signed for a few minutes instead. */
export async function badgeCardUrl(ctx: AppContext, actor: AuthUser, id: number): Promise<{ url: string }> {
  if (!(await repo.find(ctx.db, id))) throw notFound(NOT_FOUND);
  return { url: `/api/user-badge/${id}/pdf?${signedQueryFor(urlKey(ctx.badgeSecret, 'badge-pdf-url'), badgeSubject(id), actor.id)}` };
}

/** The printable badge card behind a signed address; the signer must still be an active administrator. */
export async function badgeCardPdf(ctx: AppContext, id: number, q: SignedQuery): Promise<{ fileName: string; pdf: Buffer }> {
  const verified = verifySigned(urlKey(ctx.badgeSecret, 'badge-pdf-url'), badgeSubject(id), q);
  if (!verified.ok) {
    if (verified.reason === 'missing') throw unauthenticated();
    throw forbidden(verified.reason === 'expired' ? 'This link has expired. Print the badge again.' : 'This link is not valid.');
  }
  const signer = await repo.find(ctx.db, verified.userId);
  if (!signer || signer.user_status_id !== USER_STATUS.ACTIVE || !can(signer, 'administer')) throw forbidden();
  const user = await repo.find(ctx.db, id);
  const version = await badgeVersion(ctx.db, id);
  if (!user || version === undefined) throw notFound(NOT_FOUND);
  const pdf = await renderBadgePdf({
    operator: operatorShortName(await operatorIdentity(ctx.db)),
    name: user.full_name,
    role: user.role?.name ?? null,
    branch: user.branch?.name ?? null,
    qrPng: await qrPng(encodeBadge(ctx.badgeSecret, id, version)),
  });
  return { fileName: `badge-${id}.pdf`, pdf };
}
