import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { USER_STATUS } from '../../shared/lookups.ts';
import type { Actor } from '../../shared/permissions.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { accessTokens, users } from '../db/schema/users.ts';
import { MSG } from '../../shared/messages.ts';
import { AppError, forbidden, unauthenticated } from './errors.ts';
import { hashToken } from './tokens.ts';

export interface AuthUser extends Actor {
  email: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  user_status_id: number;
  badge_version: number;
  must_change_password: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route changes sign-ins or users: its answer waits until every instance's session cache has heard. */
    changesSessions?: boolean;
  }
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

/**
 * How long a resolved sign-in is reused without asking the database. Any write request on this instance
 * forgets every cached sign-in before its answer is sent, and every change to a sign-in or its user (logout,
 * deactivation, a password reset, a role or branch change), made through any instance, reaches every
 * instance's cache at once by LISTEN/NOTIFY (a trigger sends it at commit); this is only the backstop.
 */
export const SESSION_CACHE_MS = 3_000;
const SESSION_CACHE_MAX = 10_000;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const prepareSessionLookup = (db: Db) =>
  db
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
      must_change_password: users.must_change_password,
      expires_at: accessTokens.expires_at,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.user_id))
    .where(
      and(
        eq(accessTokens.token_hash, sql.placeholder('tokenHash')),
        gt(accessTokens.expires_at, sql.placeholder('now')),
        eq(users.user_status_id, USER_STATUS.ACTIVE),
      ),
    )
    .limit(1)
    .prepare('session_user');

/**
 * Resolves the Bearer token of every API request to its Active, unexpired user, through a short-lived cache
 * (SESSION_CACHE_MS). A lookup that overlapped a write is not cached, so it cannot bring back what the write ended.
 */
export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  const lookup = prepareSessionLookup(ctx.db);
  const sessions = new Map<string, { user: AuthUser; until: number }>();
  let writes = 0;
  const forget = () => {
    writes += 1;
    sessions.clear();
  };
  const watch = await ctx.shared.watchSessions(forget);
  app.addHook('onClose', async () => watch.stop());
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = bearer(request);
    if (!token) return;
    const tokenHash = hashToken(token);
    const now = Date.now();
    const cached = sessions.get(tokenHash);
    if (cached && cached.until > now) {
      request.user = cached.user;
      request.tokenHash = tokenHash;
      return;
    }
    const writesBefore = writes;
    const [row] = await lookup.execute({ tokenHash, now: new Date(now).toISOString() });
    if (!row) return;
    const { expires_at: expiresAt, ...user } = row;
    const session = { user: Object.freeze(user), until: Math.min(now + SESSION_CACHE_MS, expiresAt.getTime()) };
    if (writes === writesBefore) {
      if (sessions.size >= SESSION_CACHE_MAX) sessions.clear();
      sessions.set(tokenHash, session);
    }
    request.user = session.user;
    request.tokenHash = tokenHash;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (READ_METHODS.has(request.method)) return payload;
    forget();
    if (request.routeOptions.config.changesSessions && reply.statusCode < 400) {
      await watch
        .settle()
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'other instances may keep this sign-in cached for up to SESSION_CACHE_MS'),
        );
    }
    return payload;
  });
}

const guards = new WeakMap<object, 'session' | 'rule'>();

/**
 * An onRequest hook that demands a signed-in user and, optionally, a rule they must pass, before the body is read or validated.
 * A user who must change the password an administrator chose is refused everywhere but where `beforePasswordChange` allows.
 */
export function authorize(rule?: (user: AuthUser) => boolean, options: { beforePasswordChange?: boolean } = {}): onRequestAsyncHookHandler {
  const guard: onRequestAsyncHookHandler = async (request) => {
    if (!request.user) throw unauthenticated();
    if (request.user.must_change_password && !options.beforePasswordChange)
      throw new AppError('password_change_required', MSG.mustChangePassword, 403);
    if (rule && !rule(request.user)) throw forbidden();
  };
  guards.set(guard, rule ? 'rule' : 'session');
  return guard;
}

/** Whether a hook is an authorize() guard and whether it has a rule: the API document derives 401 and 403 from it. */
export const guardOf = (hook: unknown): 'session' | 'rule' | null => (typeof hook === 'function' ? (guards.get(hook) ?? null) : null);

/** The signed-in user inside a handler guarded by authorize(). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}
