import type { AppContext } from '../../context.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import * as repo from './repo.ts';

const RESET_TTL_MS = 30 * 60 * 1000;
const SET_PASSWORD_TTL_MS = 3 * 24 * 3_600_000;

/** A single-use reset token that voids any older one; the link comes from APP_URL, never from the request. */
async function passwordLink(ctx: AppContext, userId: number, ttlMs: number): Promise<string> {
  const token = newToken();
  await ctx.db.transaction(async (tx) => {
    await repo.voidPasswordResets(tx, userId);
    await repo.insertPasswordReset(tx, userId, hashToken(token), new Date(Date.now() + ttlMs));
  });
  return `${ctx.config.appUrl}/reset-password/${token}`;
}

/**
 * A new user's set-password mail, instead of a first password an administrator would have to pass on: the reset-token
 * mechanism with a longer life, since the account may wait days for its first sign-in.
 */
export async function sendSetPasswordLink(ctx: AppContext, user: { id: number; email: string; first_name: string }): Promise<void> {
  const link = await passwordLink(ctx, user.id, SET_PASSWORD_TTL_MS);
  await ctx.mailer.send({
    to: user.email,
    subject: 'Set your PadTrack password',
    text: `Hello ${user.first_name},\n\nAn account was made for you in PadTrack. Open this link within 3 days to choose your password:\n${link}\n\nThen sign in with your e-mail and that password.\n`,
    html: `<p>Hello ${escapeHtml(user.first_name)},</p><p>An account was made for you in PadTrack. Open this link within 3 days to choose your password:</p><p><a href="${link}">${link}</a></p><p>Then sign in with your e-mail and that password.</p>`,
  });
}

/** Mails a single-use reset link that voids any older one. */
export async function sendResetLink(ctx: AppContext, user: { id: number; email: string; first_name: string }): Promise<void> {
  const link = await passwordLink(ctx, user.id, RESET_TTL_MS);
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your PadTrack password',
    text: `Hello ${user.first_name},\n\nOpen this link within 30 minutes to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
    html: `<p>Hello ${escapeHtml(user.first_name)},</p><p>Open this link within 30 minutes to choose a new password:</p><p><a href="${link}">${link}</a></p><p>If you did not ask for this, ignore this mail.</p>`,
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
