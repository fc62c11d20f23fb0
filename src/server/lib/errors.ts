import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
    /** A 429's Retry-After, when the limit knows when it lifts. */
    readonly retryAfterSeconds = 60,
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
/**
 * A value the database could not hold: a number out of its column's range (22003), a date or time it cannot represent
 * (22008) or read (22007). The schemas bound every field first (src/shared/schemas/fields.ts); reaching here is bad
 * input the schemas missed, so it is answered as such, and logged so the missing bound gets added.
 */
const VALUE_OUT_OF_RANGE = new Set(['22003', '22008', '22007']);

/**
 * @fastify/busboy's errors for a multipart body it cannot parse (no boundary, cut short): plain errors without a code
 * or status, told apart by their messages only.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

export const FRAMEWORK_MSG = {
  badMultipart: 'The request body is not a valid multipart form.',
  pathTooLong: 'The address is too long.',
  badPath: 'The address is not valid.',
  headersTooLarge: 'The request headers are too large.',
  timeout: 'The request took too long to arrive.',
  badRequest: 'The request could not be read.',
} as const;

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
      if (error.status === 429) reply.header('Retry-After', String(error.retryAfterSeconds));
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
    if (request.headers['content-type']?.startsWith('multipart/') && MALFORMED_MULTIPART.test(error.message))
      return reply.status(400).send({ message: FRAMEWORK_MSG.badMultipart });
    if (VALUE_OUT_OF_RANGE.has(sqlState(error) ?? '')) {
      request.log.warn({ err: error }, 'value refused by the database: a schema lacks a bound');
      return reply.status(422).send({ message: MSG.invalidData });
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

/**
 * Fastify's router answers some addresses before any route or error handler runs (a path parameter longer than
 * `maxParamLength`, a malformed percent-encoding); this gives those answers the app's `{ message }` shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(414).send({ message: FRAMEWORK_MSG.pathTooLong });
  if (error.code === 'FST_ERR_BAD_URL') return reply.status(400).send({ message: FRAMEWORK_MSG.badPath });
  return reply.status(500).send({ message: MSG.unexpected });
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: FRAMEWORK_MSG.headersTooLarge },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: FRAMEWORK_MSG.timeout },
};

/**
 * Node's HTTP parser refuses a request before Fastify sees it (headers over `maxHeaderSize`, a malformed request, a
 * timeout) and would answer in its own shape; this writes the app's `{ message }` instead and closes the connection.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const answer = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', message: FRAMEWORK_MSG.badRequest };
  const body = JSON.stringify({ message: answer.message });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
