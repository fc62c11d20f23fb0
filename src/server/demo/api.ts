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
    return new DemoApi(app, (res.json() as { token: string }).token);
  }

  async call<T = Json>(method: 'GET' | 'POST' | 'PUT', path: string, payload?: Json, query?: Record<string, string>): Promise<T> {
    const res = await this.app.inject({ method, url: `/api/${path}`, payload, query, headers: { authorization: `Bearer ${this.token}` } });
    if (res.statusCode >= 400) throw new Error(`demo ${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  }
}
