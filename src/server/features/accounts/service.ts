import { randomBytes } from 'node:crypto';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import type { LoginResponse, SessionUser } from '../../../shared/schemas/accounts.ts';
import type { AppContext } from '../../context.ts';
import { encodeBadge } from '../../lib/badge.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { qrSvgBase64 } from '../../lib/qr.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { assertCan } from '../../lib/policy.ts';
import { sendResetLink } from './lifecycle.ts';
import * as repo from './repo.ts';

/** Five failed sign-ins per client and e-mail a minute, counted together by every instance. */
const loginFailures = (ctx: AppContext) => ctx.shared.failures('login', 5, 60_000);
/** Unknown e-mails still cost one hash check, so response times do not reveal which accounts exist. */
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

async function startSession(ctx: AppContext, userId: number, mustChangePassword = false): Promise<LoginResponse> {
  await repo.purgeDeadTokens(ctx.db, new Date());
  const token = newToken();
  await repo.insertAccessToken(ctx.db, userId, hashToken(token), new Date(Date.now() + ctx.config.tokenTtlHours * 3_600_000));
  const user = await repo.findSessionUser(ctx.db, userId);
  if (!user) throw notFound();
  return { user, token, time_zone: ctx.config.timeZone, must_change_credentials: mustChangePassword };
}

/** Signs in; repeated failures for one client and e-mail are throttled so passwords cannot be guessed. */
export async function login(ctx: AppContext, input: { email: string; password: string }, clientKey: string): Promise<LoginResponse> {
  const key = `${clientKey}|${input.email}`;
  const failures = loginFailures(ctx);
  if (await failures.isBlocked(key)) throw new AppError('too_many', MSG.tooManyRequests, 429);
  const user = await repo.findUserByEmail(ctx.db, input.email);
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await verifyPassword(await dummyHash, input.password)) && false;
  if (!user || !ok) {
    await failures.fail(key);
    throw invalid('email', MSG.invalidCredentials);
  }
  if (user.user_status_id !== USER_STATUS.ACTIVE)
    throw new AppError('inactive', MSG.accountInactive, 403, { email: [MSG.accountInactive] });
  await failures.clear(key);
  return startSession(ctx, user.id, user.must_change_password);
}

/** Logout only ever removes the token that made the call. */
export async function logout(ctx: AppContext, tokenHash: string): Promise<void> {
  await repo.deleteAccessToken(ctx.db, tokenHash);
}

/** Self-registration: an Active account without role or branch until an administrator assigns them. */
export async function register(
  ctx: AppContext,
  input: { first_name: string; middle_name: string | null; last_name: string; email: string; mobile_number: string; password: string },
): Promise<LoginResponse> {
  if (await repo.emailTakenByOther(ctx.db, input.email, null)) throw invalid('email', MSG.emailTaken);
  const user = await repo.insertUser(ctx.db, {
    first_name: input.first_name,
    middle_name: input.middle_name,
    last_name: input.last_name,
    email: input.email,
    contact_number: input.mobile_number,
    password_hash: await hashPassword(input.password),
    user_status_id: USER_STATUS.ACTIVE,
  });
  return startSession(ctx, user.id);
}

/**
 * The work behind forgot-password, run only after the answer is sent: the answer cannot depend on whether
 * the e-mail is known, not even in its timing, so accounts cannot be enumerated.
 */
export async function mailResetLinkIfKnown(ctx: AppContext, email: string): Promise<void> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (user && user.user_status_id === USER_STATUS.ACTIVE) await sendResetLink(ctx, user);
}

/** Spends a reset token: new password, rotated badge, and every other session of that user ended. */
export async function updatePassword(
  ctx: AppContext,
  input: { token: string; password: string },
  caller: { user: AuthUser | null; tokenHash: string | null },
): Promise<{ role_id: number | null }> {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordReset(tx, hashToken(input.token));
    if (!userId) throw invalid('password', MSG.invalidOrExpiredToken);
    await repo.voidPasswordResets(tx, userId);
    const roleId = await repo.setPasswordAndRotateBadge(tx, userId, passwordHash);
    await repo.deleteUserTokens(tx, userId, caller.user?.id === userId ? caller.tokenHash : null);
    return { role_id: roleId };
  });
}

/**
 * Replaces a password an administrator chose (or the generated first-admin one) with the user's own; until then every other
 * call is refused (docs/design.md §5). The current password proves it is the user; other sessions end, this one stays.
 */
export async function changePassword(
  ctx: AppContext,
  caller: { user: AuthUser; tokenHash: string | null },
  input: { current_password: string; password: string },
): Promise<void> {
  const user = await repo.findUserById(ctx.db, caller.user.id);
  if (!user) throw notFound();
  if (!(await verifyPassword(user.password_hash, input.current_password))) throw invalid('current_password', MSG.currentPasswordWrong);
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    await repo.voidPasswordResets(tx, user.id);
    await repo.setPasswordAndRotateBadge(tx, user.id, passwordHash);
    await repo.deleteUserTokens(tx, user.id, caller.tokenHash);
  });
}

export async function profile(ctx: AppContext, userId: number): Promise<SessionUser> {
  const user = await repo.findSessionUser(ctx.db, userId);
  if (!user) throw notFound();
  return user;
}

/**
 * Names and e-mail only: nobody changes their own role, branch or status here. A new e-mail needs the
 * current password, since the e-mail is where reset links go: a borrowed session must not take the account.
 */
export async function updateProfile(
  ctx: AppContext,
  userId: number,
  input: { first_name: string; last_name: string; email: string; current_password?: string },
): Promise<SessionUser> {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) throw notFound();
  if (user.email.toLowerCase() !== input.email) {
    if (!input.current_password) throw invalid('current_password', MSG.currentPasswordRequired);
    if (!(await verifyPassword(user.password_hash, input.current_password))) throw invalid('current_password', MSG.currentPasswordWrong);
  }
  if (await repo.emailTakenByOther(ctx.db, input.email, userId)) throw invalid('email', MSG.emailTaken);
  await repo.updateUser(ctx.db, userId, { first_name: input.first_name, last_name: input.last_name, email: input.email });
  return profile(ctx, userId);
}

/** Own account with no target; another user's only for administrators (roles 1, 2). */
export async function resetUserPassword(ctx: AppContext, actor: AuthUser, targetId: number | undefined): Promise<string> {
  if (targetId === undefined || targetId === actor.id) {
    await sendResetLink(ctx, actor);
    return MSG.resetLinkSentAlert;
  }
  assertCan(actor, 'user.resetPassword', { id: targetId });
  const target = await repo.findSessionUser(ctx.db, targetId);
  if (!target) throw notFound('User not found.');
  await sendResetLink(ctx, target);
  return MSG.resetLinkSentToUser;
}

export async function badge(ctx: AppContext, user: AuthUser): Promise<{ qr_code: string; code: string }> {
  const code = encodeBadge(ctx.badgeSecret, user.id, user.badge_version);
  return { qr_code: await qrSvgBase64(code), code };
}
