import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/test-app.ts';

let t: TestApp;
let webDir: string;
const script = `export const screen = "${'sign in '.repeat(400)}";\n`;

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>',
  );
  fs.writeFileSync(path.join(webDir, 'login.html'), '<!doctype html><div id="root"><form method="post" action="/login"></form></div>');
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  fs.writeFileSync(path.join(webDir, 'assets/index-AbC123.js'), script);
  fs.writeFileSync(path.join(webDir, 'assets/index-AbC123.js.br'), brotliCompressSync(script));
  fs.writeFileSync(path.join(webDir, 'assets/index-AbC123.js.gz'), gzipSync(script));
  t = await createTestApp({ WEB_DIR: webDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('web assets', () => {
  it('when a hashed asset is asked for by a browser that takes brotli, then the precompressed file is sent and cached for a year', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate, br');

    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(res.headers['content-length'])).toBeLessThan(script.length / 10);
  });

  it('when the browser takes only gzip, then the gzip file; when it takes neither, then the plain file', async () => {
    const gzip = await get('/assets/index-AbC123.js', 'gzip');
    const plain = await get('/assets/index-AbC123.js');

    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('when a screen address or an unhashed file is asked for, then it is revalidated on every visit', async () => {
    const screen = await get('/login', 'br');
    const icon = await get('/favicon.svg');

    expect(screen.statusCode).toBe(200);
    expect(screen.headers['content-type']).toMatch(/text\/html/);
    expect(screen.headers['cache-control']).toBe('no-cache');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('when /login is asked for, then the page with the sign-in form already in it is sent; any other screen gets the empty shell', async () => {
    const signIn = await get('/login');
    const other = await get('/invoices');

    expect(signIn.body).toContain('<form method="post" action="/login">');
    expect(signIn.headers['cache-control']).toBe('no-cache');
    expect(other.body).toContain('<div id="root"></div>');
  });

  it('when the sign-in form is sent before its script has taken it over, then the browser is sent back to /login and nothing is signed in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=whatever1',
    });

    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('when a screen, an asset, an API answer or an unknown address is served, then each carries the same security policy', async () => {
    const answers = [
      await get('/login'),
      await get('/assets/index-AbC123.js', 'br'),
      await get('/api/health'),
      await get('/api/no-such-thing'),
    ];

    for (const res of answers) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 404]);
    expect(answers.map((res) => res.headers['cache-control'])).toEqual([
      'no-cache',
      'public, max-age=31536000, immutable',
      'no-store',
      'no-store',
    ]);
  });
});
