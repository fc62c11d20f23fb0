import { z } from 'zod';
import { MSG } from '../../../shared/messages.ts';
import {
  badgeResponse,
  changePasswordSchema,
  forgotPasswordSchema,
  loginResponse,
  loginSchema,
  passwordUpdatedResponse,
  profileUpdatedResponse,
  registeredResponse,
  sessionUser,
  profileSchema,
  registrationSchema,
  updatePasswordSchema,
} from '../../../shared/schemas/accounts.ts';
import { id } from '../../../shared/schemas/fields.ts';
import { created, dataResponse, messageResponse, ok } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorize, currentUser } from '../../lib/auth.ts';
import { SECURITY } from '../../lib/openapi.ts';
import { AppError } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';
import * as service from './service.ts';

const tags = ['accounts'];

/** docs/design.md §5 limits, per client (address as the proxy setting resolves it) and, after validation, per e-mail or token. */
export const ACCOUNT_LIMITS = {
  forgotPerClient: { max: 20, windowMs: 60_000 },
  forgotPerEmail: { max: 3, windowMs: 15 * 60_000 },
  updatePasswordPerClient: { max: 10, windowMs: 60_000 },
  updatePasswordPerToken: { max: 5, windowMs: 30 * 60_000 },
} as const;

const perClient = (limit: { max: number; windowMs: number }) => ({ rateLimit: { max: limit.max, timeWindow: limit.windowMs } });

/** A preHandler limit on a key read from the validated body: keys made before parsing never see it. */
function perSubject(app: App, limit: { max: number; windowMs: number }, subject: (request: FastifyRequest) => string) {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: subject });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('Retry-After', String(result.ttlInSeconds));
      throw new AppError('too_many', MSG.tooManyRequests, 429);
    }
  };
}

const bodyField = (request: FastifyRequest, field: string) => {
  // -- read before validation, for the throttle key; fastify types an unvalidated body as unknown, and the field is checked to be a string.
  const value = (request.body as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' ? value : '';
};

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function accountRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/login',
    {
      schema: {
        operationId: 'login',
        summary: 'Signs in with e-mail and password and returns a bearer token',
        tags,
        security: SECURITY.none,
        body: loginSchema,
        response: ok(loginResponse, 403, 429),
      },
    },
    async (request) => service.login(ctx, request.body, request.ip),
  );

  app.post(
    '/api/logout',
    {
      schema: { operationId: 'logout', summary: 'Signs out, revoking the bearer token', tags, response: ok(messageResponse) },
      onRequest: authorize(undefined, { beforePasswordChange: true }),
      config: { changesSessions: true },
    },
    async (request) => {
      await service.logout(ctx, request.tokenHash ?? '');
      return { message: MSG.loggedOut };
    },
  );

  app.post(
    '/api/register-account',
    {
      schema: {
        operationId: 'registerAccount',
        summary: 'Registers a new account and signs it in',
        tags,
        security: SECURITY.none,
        body: registrationSchema,
        response: created(registeredResponse),
      },
    },
    async (request, reply) => {
      const session = await service.register(ctx, request.body);
      return reply.status(201).send({ message: MSG.registered, ...session });
    },
  );

  app.post(
    '/api/forgot-password',
    {
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'Mails a password reset link when the e-mail belongs to an account',
        tags,
        security: SECURITY.none,
        body: forgotPasswordSchema,
        response: ok(messageResponse),
      },
      config: perClient(ACCOUNT_LIMITS.forgotPerClient),
      preHandler: perSubject(app, ACCOUNT_LIMITS.forgotPerEmail, (request) => `reset-email:${bodyField(request, 'email')}`),
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 200) return;
        await service.mailResetLinkIfKnown(ctx, request.body.email).catch((error: unknown) => {
          request.log.error({ err: error }, 'reset link not sent');
        });
      },
    },
    async () => ({ message: MSG.resetLinkSent }),
  );

  app.post(
    '/api/update-password',
    {
      schema: {
        operationId: 'updatePassword',
        summary: 'Sets a new password with a reset token',
        tags,
        security: SECURITY.none,
        body: updatePasswordSchema,
        response: ok(passwordUpdatedResponse),
      },
      config: { ...perClient(ACCOUNT_LIMITS.updatePasswordPerClient), changesSessions: true },
      preHandler: perSubject(
        app,
        ACCOUNT_LIMITS.updatePasswordPerToken,
        (request) => `reset-token:${hashToken(bodyField(request, 'token'))}`,
      ),
    },
    async (request) => {
      const result = await service.updatePassword(ctx, request.body, { user: request.user, tokenHash: request.tokenHash });
      return { message: MSG.passwordUpdated, role_id: result.role_id };
    },
  );

  app.post(
    '/api/change-password',
    {
      schema: {
        operationId: 'changePassword',
        summary: "Replaces the password an administrator chose with the signed-in user's own",
        tags,
        body: changePasswordSchema,
        response: ok(messageResponse),
      },
      onRequest: authorize(undefined, { beforePasswordChange: true }),
      config: { changesSessions: true },
    },
    async (request) => {
      await service.changePassword(ctx, { user: currentUser(request), tokenHash: request.tokenHash }, request.body);
      return { message: MSG.passwordUpdated };
    },
  );

  app.get(
    '/api/user-profile',
    {
      schema: { operationId: 'getProfile', summary: "Gets the signed-in user's profile", tags, response: ok(dataResponse(sessionUser)) },
      onRequest: authorize(undefined, { beforePasswordChange: true }),
    },
    async (request) => ({
      data: await service.profile(ctx, currentUser(request).id),
    }),
  );

  app.put(
    '/api/update-profile',
    {
      schema: {
        operationId: 'updateProfile',
        summary: "Updates the signed-in user's profile",
        tags,
        body: profileSchema,
        response: ok(profileUpdatedResponse),
      },
      onRequest: authorize(),
      config: { changesSessions: true },
    },
    async (request) => ({
      message: MSG.profileUpdated,
      userProfile: await service.updateProfile(ctx, currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/api/reset-user-password',
    {
      schema: {
        operationId: 'resetUserPassword',
        summary: 'Mails a password reset link to the signed-in user or, for administrators, to another user',
        tags,
        body: z.object({ user_id: id().optional() }).nullish(),
        response: ok(messageResponse, 403, 404),
      },
      onRequest: authorize(),
    },
    async (request) => ({ message: await service.resetUserPassword(ctx, currentUser(request), request.body?.user_id) }),
  );

  app.get(
    '/api/get-user-qrcode',
    {
      schema: { operationId: 'getOwnBadgeQrCode', summary: "Gets the signed-in user's badge QR code", tags, response: ok(badgeResponse) },
      onRequest: authorize(),
    },
    async (request) => {
      const { qr_code } = await service.badge(ctx, currentUser(request));
      return { qr_code };
    },
  );
}
