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

async function send(
  method: string,
  path: string,
  body: unknown,
  params: Params | undefined,
  accept: string,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const session = sessionStore.get();
  const headers: Record<string, string> = { Accept: accept, 'X-Requested-With': 'XMLHttpRequest', ...extraHeaders };
  const token = session?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const xsrf = xsrfToken();
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/${path}${query(params)}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, method === 'GET' ? MSG.noConnectionRead : MSG.noConnection, {}, false);
  }
  if (!response.ok) {
    // -- the API's error body (lib/errors.ts); its shape is fixed there.
    const payload = (parseJson(await response.text()) ?? {}) as { message?: string; errors?: FieldErrors };
    if (response.status === 401 && (token || session?.ended)) {
      sessionStore.end();
      throw new ApiError(401, MSG.sessionEnded);
    }
    throw new ApiError(response.status, payload.message ?? MSG.unexpected, payload.errors ?? {});
  }
  return response;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function request<T>(method: string, path: string, body?: unknown, params?: Params, headers?: Record<string, string>): Promise<T> {
  const response = await send(method, path, body, params, 'application/json', headers);
  // -- the caller names the answer's type of the route it calls; the server serializes it with that response schema.
  return parseJson(await response.text()) as T;
}

export const api = {
  get: <T>(path: string, params?: Params) => request<T>('GET', path, undefined, params),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  /** An action a device may send again (the offline queue): the server answers a repeated key as the first time. */
  postOnce: <T>(path: string, body: unknown, idempotencyKey: string) =>
    request<T>('POST', path, body, undefined, { 'Idempotency-Key': idempotencyKey }),
  /** A multipart form (files with their fields); the browser sets its boundary. */
  postForm: <T>(path: string, form: FormData) => request<T>('POST', path, form),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** A file answer (PDF, CSV) as bytes, with the same session, headers and error messages as every other call. */
  file: async (path: string, params?: Params) => (await send('GET', path, undefined, params, '*/*')).blob(),
};

/** Opens a PDF in a new tab, or saves a file, from the bytes fetched. */
export function openBlob(blob: Blob, fileName: string, download: boolean) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  if (download) link.download = fileName;
  else link.target = '_blank';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export type { Paginated };

/** A message fit for an alert: the server's words for 4xx, "No connection" when nothing reached it, the spec's generic text otherwise. */
export function errorMessage(error: unknown, fallback: string = MSG.unexpected): string {
  if (error instanceof ApiError && !error.hasResponse) return error.message;
  if (error instanceof ApiError && error.hasResponse && error.status < 500 && error.message) return error.message;
  return fallback;
}

/** The spec's words for a failed action, except when nothing reached the server: then "No connection". */
export function failureMessage(error: unknown, specMessage: string): string {
  return error instanceof ApiError && !error.hasResponse ? error.message : specMessage;
}
