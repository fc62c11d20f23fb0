import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { MSG } from '../../shared/messages.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { redactUrl } from './log-serializers.ts';

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestApp({}, { logger: pino({ level: 'info' }, sink) });
});
afterAll(async () => {
  await t.close();
});

describe('what the log keeps', () => {
  it('when a query fails with secrets among its parameters, then the log has SQLSTATE and query text but no hash, e-mail or name (docs/SECURITY.md "What is logged")', async () => {
    await t.db.execute(sql`alter table users add constraint users_no_boom_ck check (first_name <> 'Boomer')`);
    try {
      const email = 'secret-person@example.com';
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register-account',
        payload: {
          first_name: 'Boomer',
          last_name: 'Hidalgo',
          email,
          mobile_number: '09171234567',
          password: 'Hidden@123',
          password_confirmation: 'Hidden@123',
        },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: MSG.unexpected });
      const log = lines.join('');
      expect(log).toContain('"sqlState":"23514"');
      expect(log).toContain('insert into \\"users\\"');
      for (const secret of [email, '$argon2', 'Hidden@123', 'Hidalgo', 'Boomer', '09171234567']) expect(log).not.toContain(secret);
    } finally {
      await t.db.execute(sql`alter table users drop constraint users_no_boom_ck`);
    }
  });

  it('when reset links and signed PDF URLs are requested, then the request log keeps neither token nor signature (docs/SECURITY.md "What is logged")', async () => {
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/reset-password/ResetTokenSecret123' });
    await t.app.inject({ method: 'GET', url: '/api/reports/1/pdf?user=1&expires=9999999999&signature=SignatureSecret456' });
    await t.app.inject({ method: 'GET', url: '/api/reports/preview?ids=1&user=1&expires=9999999999&signature=SignatureSecret789' });
    const log = lines.join('');
    expect(log).toContain('/reset-password/[redacted]');
    expect(log).toContain('signature=[redacted]');
    for (const secret of ['ResetTokenSecret123', 'SignatureSecret456', 'SignatureSecret789']) expect(log).not.toContain(secret);
    expect(redactUrl('/api/get-pads?search=12&page=2')).toBe('/api/get-pads?search=12&page=2');
  });

  it('when a reset mail is written to disk (no SMTP), then the log names the file but not the link, its token or the address (docs/SECURITY.md "What is logged")', async () => {
    lines.length = 0;
    const email = 'admin@padtrack.test';
    expect((await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } })).statusCode).toBe(200);
    for (let i = 0; i < 100 && !lines.join('').includes('mail written'); i += 1) await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('');
    expect(log).toMatch(/"file":"[^"]+\.eml"/);
    expect(log).not.toContain('/reset-password/');
    expect(log).not.toContain(email);
  });
});
