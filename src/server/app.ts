import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from './app-type.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { registerAuth } from './lib/auth.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './lib/errors.ts';
import { logSerializers } from './lib/log-serializers.ts';
import { documentErrorStatuses, swaggerOptions } from './lib/openapi.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { accountRoutes } from './features/accounts/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { roleRoutes } from './features/roles/routes.ts';
import { companyRoutes } from './features/companies/routes.ts';
import { routeRoutes } from './features/routes/routes.ts';
import { locationRoutes } from './features/locations/routes.ts';
import { branchRoutes } from './features/branches/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { padRoutes } from './features/pads/routes.ts';
import { custodyRoutes } from './features/custodies/routes.ts';
import { invoiceRoutes } from './features/invoices/routes.ts';
import { ledgerRoutes } from './features/ledger/routes.ts';
import { myActionRoutes } from './features/my-actions/routes.ts';
import { dashboardRoutes } from './features/dashboard/routes.ts';
import { setupRoutes } from './features/setup/routes.ts';
import { outcomeRoutes } from './features/outcomes/routes.ts';
import { importRoutes } from './features/imports/routes.ts';
import { registeredSeriesRoutes } from './features/registered-series/routes.ts';
import { incidentRoutes } from './features/incidents/routes.ts';
import { countRoutes } from './features/counts/routes.ts';
import { settingsRoutes } from './features/settings/routes.ts';
import { jobRoutes } from './features/jobs/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { establishmentRoutes } from './features/establishments/routes.ts';
import { outageRoutes } from './features/outages/routes.ts';
import { paperUseExceptionRoutes } from './features/outages/exceptions-routes.ts';
import { replacementRoutes } from './features/outages/replacements-routes.ts';
import { paperUseSummaryRoutes } from './features/outages/summary-routes.ts';
import multipart from '@fastify/multipart';
import { MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES } from '../shared/schemas/incidents.ts';

const withZod = (app: FastifyInstance): App => app.withTypeProvider<ZodTypeProvider>();

/** Each feature adds its routes here; nothing else in the app knows the features. */
const FEATURES: Array<(app: App, ctx: AppContext) => void> = [
  healthRoutes,
  accountRoutes,
  custodyRoutes,
  invoiceRoutes,
  padRoutes,
  reportRoutes,
  userRoutes,
  roleRoutes,
  companyRoutes,
  routeRoutes,
  locationRoutes,
  branchRoutes,
  ledgerRoutes,
  myActionRoutes,
  dashboardRoutes,
  setupRoutes,
  outcomeRoutes,
  incidentRoutes,
  countRoutes,
  importRoutes,
  registeredSeriesRoutes,
  settingsRoutes,
  jobRoutes,
  notificationRoutes,
  establishmentRoutes,
  outageRoutes,
  paperUseExceptionRoutes,
  replacementRoutes,
  paperUseSummaryRoutes,
];

/** A hop count becomes the function Fastify applies to numbers, which its option type does not list. */
const trustProxyOption = (setting: Config['trustProxy']) =>
  typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;

/** Vite's hashed files under assets/ never change under one name, so browsers keep them; everything else is revalidated. */
export function webCacheControl(webDir: string, filePath: string): string {
  const relative = path.relative(webDir, filePath).split(path.sep);
  return relative.length > 1 && relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Builds the HTTP app around a context; main.ts listens on it, tests call inject on it. */
export async function buildApp(ctx: AppContext, options: { ping: () => Promise<void> }): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log.child({}, { serializers: logSerializers }),
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1_048_576,
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(ctx.config.checkResponses));
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await app.register(rateLimit, { global: false, store: ctx.shared.rateLimitStore });
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: MAX_ATTACHMENTS, fields: 20, fieldSize: 100_000, parts: 40 },
  });
  documentErrorStatuses(app);
  await app.register(swagger, swaggerOptions(ctx.config));
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await registerAuth(app, ctx);
  app.decorate('ping', options.ping);
  const api = withZod(app);
  for (const feature of FEATURES) feature(api, ctx);

  const webDir = ctx.config.webDir;
  const indexFile = webDir ? path.join(webDir, 'index.html') : null;
  /* The sign-in page with its form already in the HTML (scripts/build/prerender-sign-in-plugin.ts); a build without it serves index.html. */
  const signInFile = webDir ? path.join(webDir, 'login.html') : null;
  if (webDir && indexFile && fs.existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', webCacheControl(webDir, filePath)),
    });
  }
  await app.register(signInWithoutScript);
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: `No such endpoint: ${request.method} ${url}` });
    }
    if (url === '/login' && signInFile && fs.existsSync(signInFile)) return reply.type('text/html').sendFile('login.html');
    if (indexFile && fs.existsSync(indexFile)) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).type('text/plain').send('The web app is not built. Run `npm run build`.');
  });
  return app;
}

/**
 * The prerendered sign-in form posts here only when it is sent before the script has taken it over. The session lives in
 * the script's storage, not in a cookie, so nothing is signed in here: the browser is sent back to the form (303, so a
 * reload does not send the password again), by then with the script.
 */
async function signInWithoutScript(scope: FastifyInstance) {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) =>
    done(null, null),
  );
  scope.post('/login', { schema: { hide: true } }, (_request, reply) => reply.redirect('/login', 303));
}

declare module 'fastify' {
  interface FastifyInstance {
    ping: () => Promise<void>;
  }
}
