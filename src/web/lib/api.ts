import { MSG } from '../../shared/messages.ts';
import type { Paginated } from '../../shared/schemas/common.ts';
import { sessionStore } from './session.ts';

export type FieldErrors = Record<string, string[]>;

/** What every failed call becomes: the status, the server's message and its per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
    readonly hasResponse = true,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The first message for a field, as forms show it under the input. */
  field(name: string): string | undefined {
    return this.errors[name]?.[0];
  }
}

type Params = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

function query(params?: Params): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) search.set(key, value.join(','));
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function xsrfToken(): string | null {
  const match = document.cookie.match(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

async function request<T>(method: string, path: string, body?: unknown, params?: Params): Promise<T> {
  const session = sessionStore.get();
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const token = session?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = xsrfToken();
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/${path}${query(params)}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, method === 'GET' ? MSG.noConnectionRead : MSG.noConnection, {}, false);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const payload = (data ?? {}) as { message?: string; errors?: FieldErrors };
    if (response.status === 401 && (token || session?.ended)) {
      sessionStore.end();
      throw new ApiError(401, MSG.sessionEnded);
    }
    throw new ApiError(response.status, payload.message ?? MSG.unexpected, payload.errors ?? {});
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, params?: Params) => request<T>('GET', path, undefined, params),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

export type { Paginated };

/** A message fit for an alert: the server's words for 4xx, "No connection" when nothing reached it, the spec's generic text otherwise. */
export function errorMessage(error: unknown, fallback: string = MSG.unexpected): string {
  if (error instanceof ApiError && !error.hasResponse) return error.message;
  if (error instanceof ApiError && error.hasResponse && error.status < 500 && error.message) return error.message;
  return fallback;
}

/** The spec's words for a failed action, except when nothing reached the server: then "No connection" (issue 14.10). */
export function failureMessage(error: unknown, specMessage: string): string {
  return error instanceof ApiError && !error.hasResponse ? error.message : specMessage;
}
