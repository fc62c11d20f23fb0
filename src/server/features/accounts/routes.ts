import { z } from 'zod';
import { MSG } from '../../../shared/messages.ts';
import {
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  registrationSchema,
  updatePasswordSchema,
} from '../../../shared/schemas/accounts.ts';
import type { App } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['accounts'];
const perClientAndEmail = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: { ip: string; body?: unknown }) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return `${request.ip}|${typeof email === 'string' ? email.toLowerCase() : ''}`;
    },
  },
});

export function accountRoutes(app: App, ctx: AppContext) {
  app.post('/api/login', { schema: { tags, security: [], body: loginSchema } }, async (request) =>
    service.login(ctx, request.body, request.ip),
  );

  app.post('/api/logout', { schema: { tags }, preHandler: authorize() }, async (request) => {
    await service.logout(ctx, request.tokenHash ?? '');
    return { message: MSG.loggedOut };
  });

  app.post('/api/register-account', { schema: { tags, security: [], body: registrationSchema } }, async (request, reply) => {
    const session = await service.register(ctx, request.body);
    return reply.status(201).send({ message: MSG.registered, ...session });
  });

  app.post(
    '/api/forgot-password',
    { schema: { tags, security: [], body: forgotPasswordSchema }, config: perClientAndEmail(5) },
    async (request) => {
      await service.forgotPassword(ctx, request.body.email);
      return { message: MSG.resetLinkSent };
    },
  );

  app.post(
    '/api/update-password',
    { schema: { tags, security: [], body: updatePasswordSchema }, config: perClientAndEmail(10) },
    async (request) => {
      const result = await service.updatePassword(ctx, request.body, { user: request.user, tokenHash: request.tokenHash });
      return { message: MSG.passwordUpdated, role_id: result.role_id };
    },
  );

  app.get('/api/user-profile', { schema: { tags }, preHandler: authorize() }, async (request) => ({
    data: await service.profile(ctx, currentUser(request).id),
  }));

  app.put('/api/update-profile', { schema: { tags, body: profileSchema }, preHandler: authorize() }, async (request) => ({
    message: MSG.profileUpdated,
    userProfile: await service.updateProfile(ctx, currentUser(request).id, request.body),
  }));

  app.post(
    '/api/reset-user-password',
    {
      schema: { tags, body: z.object({ user_id: z.coerce.number().int().positive().max(2_147_483_647).optional() }).nullish() },
      preHandler: authorize(),
    },
    async (request) => ({ message: await service.resetUserPassword(ctx, currentUser(request), request.body?.user_id) }),
  );

  app.get('/api/get-user-qrcode', { schema: { tags }, preHandler: authorize() }, async (request) => {
    const { qr_code } = await service.badge(ctx, currentUser(request));
    return { qr_code };
  });
}
