import type { FastifyInstance } from 'fastify';
import { DEMO_PASSWORD } from './accounts.ts';

export type Json = Record<string, unknown>;
export type Created = { data: { id: number } };

/** One signed-in demo account calling the HTTP API, so the demo goes through the same rules and transactions as staff. */
export class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
  ) {}

  static async as(app: FastifyInstance, email: string): Promise<DemoApi> {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: DEMO_PASSWORD } });
    if (res.statusCode !== 200) throw new Error(`demo login ${email}: ${res.body}`);
    // -- the endpoint's answer; the demo talks to this app's own API, whose schema fixes this shape.
    return new DemoApi(app, (res.json() as { token: string }).token);
  }

  /** A new account's first sign-in: the password the administrator gave is replaced with DEMO_PASSWORD (docs/design.md §5). */
  static async replaceFirstPassword(app: FastifyInstance, email: string, first: string): Promise<void> {
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: first } });
    if (login.statusCode !== 200) throw new Error(`demo first login ${email}: ${login.body}`);
    const res = await app.inject({
      method: 'POST',
      url: '/api/change-password',
      payload: { current_password: first, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD },
      // -- the endpoint's answer; the demo talks to this app's own API, whose schema fixes this shape.
      headers: { authorization: `Bearer ${(login.json() as { token: string }).token}` },
    });
    if (res.statusCode !== 200) throw new Error(`demo change-password ${email}: ${res.body}`);
  }

  async call<T = Json>(method: 'GET' | 'POST' | 'PUT', path: string, payload?: Json, query?: Record<string, string>): Promise<T> {
    const res = await this.app.inject({ method, url: `/api/${path}`, payload, query, headers: { authorization: `Bearer ${this.token}` } });
    if (res.statusCode >= 400) throw new Error(`demo ${method} ${path}: ${res.statusCode} ${res.body}`);
    // -- the caller names the answer's type of the route it calls.
    return res.json() as T;
  }
}
