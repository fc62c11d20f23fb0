import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { sqlState, violatedConstraint } from '../db/client.ts';

const RESET_LINK = /^(\/reset-password\/)[^/?#]+/;
const SECRET_PARAM = /([?&](?:signature|token)=)[^&#]*/gi;

/** A URL as the log may keep it: reset-link tokens and signed-URL signatures are replaced. */
export function redactUrl(url: string): string {
  return url.replace(RESET_LINK, '$1[redacted]').replace(SECRET_PARAM, '$1[redacted]');
}

/** A property of an error object of unknown shape (a driver's, a wrapped one), undefined when it has none. */
const field = (value: object, key: 'query' | 'cause'): unknown => (key in value ? Reflect.get(value, key) : undefined);

function firstQueryText(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const query = field(current, 'query');
    if (typeof query === 'string') return query;
    current = field(current, 'cause');
  }
  return null;
}

/** The connection-level cause (refused, terminated, timed out) of an error that carries no SQLSTATE. */
function innermostMessage(error: unknown): string | null {
  let current: unknown = error;
  let message: string | null = null;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if (field(current, 'query') === undefined && current instanceof Error) message = current.message;
    current = field(current, 'cause');
  }
  return message;
}

/**
 * Database errors are logged by SQLSTATE, constraint and query text only: the ORM puts the bound
 * parameters (password hashes, e-mails, tokens) into its message and the server into its detail.
 */
export function serializeError(error: unknown): object {
  const query = firstQueryText(error);
  const state = sqlState(error);
  if (query !== null || state !== null) {
    return {
      type: error instanceof Error ? error.name : typeof error,
      sqlState: state,
      constraint: violatedConstraint(error),
      query,
      ...(state === null ? { reason: innermostMessage(error) } : {}),
    };
  }
  return error instanceof Error ? pino.stdSerializers.err(error) : { type: typeof error };
}

function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/** The app's log serializers; Fastify's request child loggers inherit them. */
export const logSerializers = { err: serializeError, req: serializeRequest };
