import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { USER_STATUS } from '../../shared/lookups.ts';
import type { Actor } from '../../shared/permissions.ts';
import type { AppContext } from '../context.ts';
import { accessTokens, users } from '../db/schema.ts';
import { forbidden, unauthenticated } from './errors.ts';
import { hashToken } from './tokens.ts';

export interface AuthUser extends Actor {
  email: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  user_status_id: number;
  badge_version: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    tokenHash: string | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header || !header.startsWith('Bearer ')) return null;
  const token = header.slice(7).trim();
  return token.length > 0 && token.length < 200 ? token : null;
}

/** Resolves the Bearer token of every API request to its Active, unexpired user. */
export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = bearer(request);
    if (!token) return;
    const tokenHash = hashToken(token);
    const [row] = await ctx.db
      .select({
        id: users.id,
        role_id: users.role_id,
        branch_id: users.branch_id,
        email: users.email,
        first_name: users.first_name,
        middle_name: users.middle_name,
        last_name: users.last_name,
        user_status_id: users.user_status_id,
        badge_version: users.badge_version,
      })
      .from(accessTokens)
      .innerJoin(users, eq(users.id, accessTokens.user_id))
      .where(and(eq(accessTokens.token_hash, tokenHash), gt(accessTokens.expires_at, new Date()), eq(users.user_status_id, USER_STATUS.ACTIVE)))
      .limit(1);
    if (row) {
      request.user = row;
      request.tokenHash = tokenHash;
    }
  });
}

/** An onRequest hook that demands a signed-in user and, optionally, a rule they must pass, before the body is read or validated. */
export function authorize(rule?: (user: AuthUser) => boolean): onRequestAsyncHookHandler {
  return async (request) => {
    if (!request.user) throw unauthenticated();
    if (rule && !rule(request.user)) throw forbidden();
  };
}

/** The signed-in user inside a handler guarded by authorize(). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
