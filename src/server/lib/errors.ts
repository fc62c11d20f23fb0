import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ADMIN_MSG, MSG } from '../../shared/messages.ts';
import { databaseUnavailable, sqlState, violatedConstraint } from '../db/client.ts';

export type FieldErrors = Record<string, string[]>;

/** The one error services throw; the error handler turns it into the response. */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthenticated = () => new AppError('unauthenticated', MSG.unauthenticated, 401);
export const forbidden = (message: string = MSG.forbidden) => new AppError('forbidden', message, 403);
export const notFound = (message: string = MSG.notFound) => new AppError('not_found', message, 404);
export const conflict = (message: string) => new AppError('conflict', message, 409);
/** A 422 with the message under one field, as the forms show it. */
export const invalid = (field: string, message: string) => new AppError('invalid', message, 422, { [field]: [message] });

export const DATABASE_UNAVAILABLE = 'The database is not available right now. Please try again in a moment.';
const RETRY_AFTER_SECONDS = '5';

/**
 * The one mapping of unique indexes to the 422 the early checks give: two requests that pass the check
 * together still get the same answer when the index refuses the second.
 */
const UNIQUE_FIELDS: Record<string, { field: string; message: string }> = {
  users_email_lower_uq: { field: 'email', message: MSG.emailTaken },
  roles_name_lower_uq: { field: 'name', message: ADMIN_MSG.nameTaken },
  companies_name_lower_uq: { field: 'name', message: ADMIN_MSG.nameTaken },
  branches_name_lower_uq: { field: 'name', message: ADMIN_MSG.nameTaken },
  locations_name_lower_uq: { field: 'name', message: ADMIN_MSG.nameTaken },
  routes_company_name_lower_uq: { field: 'name', message: ADMIN_MSG.routeNameTaken },
};
const UNIQUE_VIOLATION = '23505';
const ALREADY_EXISTS = 'This record already exists.';

function issuesToFields(issues: ReadonlyArray<{ instancePath: string; message?: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    (errors[key] ??= []).push(issue.message ?? MSG.invalidData);
  }
  return errors;
}

/** Central error handler: 4xx say what is wrong; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 429) reply.header('Retry-After', '60');
      return reply.status(error.status).send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = issuesToFields(error.validation);
      const first = Object.values(errors)[0]?.[0] ?? MSG.invalidData;
      return reply.status(422).send({ message: first, errors });
    }
    if (sqlState(error) === UNIQUE_VIOLATION) {
      const rule = UNIQUE_FIELDS[violatedConstraint(error) ?? ''];
      if (rule) return reply.status(422).send({ message: rule.message, errors: { [rule.field]: [rule.message] } });
      return reply.status(409).send({ message: ALREADY_EXISTS });
    }
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('Retry-After', RETRY_AFTER_SECONDS).send({ message: DATABASE_UNAVAILABLE });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) return reply.status(429).send({ message: MSG.tooManyRequests });
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : error.message;
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: MSG.unexpected });
  });
}
