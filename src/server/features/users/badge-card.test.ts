import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { users } from '../../db/schema/users.ts';
import { expectAdminsOnly } from '../../test/access.ts';
import { createBranch, createUser, sessionsForAllRoles, signedIn, type Sessions } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let s: Sessions;
let driver: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await sessionsForAllRoles(t);
  const branch = await createBranch(t.db, { name: 'Calapan Pier Office' });
  driver = await createUser(t.db, { role_id: ROLE.DRIVER, branch_id: branch.id, first_name: 'Ramon', last_name: 'Dela Cruz' });
});
afterAll(async () => {
  await t.close();
});

const badgeUrl = async (headers: Record<string, string>, id: number) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/user-badge/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { url: string } }).data.url;
};

function imagesIn(pdf: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'badge-'));
  try {
    fs.writeFileSync(path.join(dir, 'badge.pdf'), pdf);
    const list = execFileSync('pdfimages', ['-list', path.join(dir, 'badge.pdf')], { encoding: 'utf8' });
    return list
      .trim()
      .split('\n')
      .slice(2)
      .filter((line) => line.trim().split(/\s+/)[2] === 'image').length;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('badge card', () => {
  it('when an admin prints a badge, then the signed address opens a card PDF with the name, role, branch and one QR image', async () => {
    const url = await badgeUrl(s.admin, driver.id);
    expect(url).toMatch(new RegExp(`^/api/user-badge/${driver.id}/pdf\\?user=\\d+&expires=\\d+&signature=`));

    const pdf = await t.app.inject({ method: 'GET', url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    const text = pdfToText(pdf.rawPayload);
    expect(text).toContain('Ramon Dela Cruz');
    expect(text).toContain('Driver');
    expect(text).toContain('Calapan Pier Office');
    expect(imagesIn(pdf.rawPayload)).toBe(1);
  });

  it('when anyone but roles 1 and 2 asks for a badge address, then 401 without a token and 403 for the others', async () => {
    await expectAdminsOnly(t, s, { method: 'GET', url: `/api/user-badge/${driver.id}` });
    const itAdminUrl = await badgeUrl(s.itAdmin, driver.id);
    expect((await t.app.inject({ method: 'GET', url: itAdminUrl })).statusCode).toBe(200);
  });

  it('when the address is tampered with, missing or signed by someone no longer an admin, then the PDF is refused', async () => {
    const url = await badgeUrl(s.admin, driver.id);
    const someoneElse = await createUser(t.db, { role_id: ROLE.MESSENGER });
    const other = url.replace(`/user-badge/${driver.id}/`, `/user-badge/${someoneElse.id}/`);
    expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/user-badge/${driver.id}/pdf` })).json()).toEqual({
      message: 'Unauthenticated.',
    });

    const demoted = await signedIn(t, { role_id: ROLE.ADMIN });
    const demotedUrl = await badgeUrl(demoted.headers, driver.id);
    await t.db.update(users).set({ role_id: ROLE.CUSTODIAN }).where(eq(users.id, demoted.user.id));
    expect((await t.app.inject({ method: 'GET', url: demotedUrl })).statusCode).toBe(403);
  });

  it('when the user does not exist, then 404 with a message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user-badge/999999', headers: s.admin });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'User not found.' });
  });
});
