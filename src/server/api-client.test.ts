import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPads, createRoute } from './test/factories.ts';
import { createTestApp, type TestApp } from './test/test-app.ts';

const run = promisify(execFile);
const bin = (name: string) => path.resolve('node_modules/.bin', name);
const EXAMPLE = path.resolve('docs/api-client/list-pads.ts');
const API_DOC = path.resolve('docs/api.md');

let t: TestApp;
let address: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  dir = path.resolve('.tmp', `api-client-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(dir, { recursive: true });
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await t.close();
});

/** docs/api.md's one generation command, pointed at the started app instead of localhost:3000. */
async function documentedGeneration(): Promise<string[]> {
  const doc = await fs.readFile(API_DOC, 'utf8');
  const line = doc.split('\n').find((text) => text.startsWith('npx openapi-typescript '));
  if (!line) throw new Error('docs/api.md has no `npx openapi-typescript` line');
  return line.replace('http://localhost:3000', address).split(' ').slice(2);
}

describe('a typed client generated from the served document', () => {
  it('when the docs/api.md command generates the client, then it and the docs/api.md example compile under tsc --strict, and the example signs in and lists pads', async () => {
    const doc = await fs.readFile(API_DOC, 'utf8');
    const example = await fs.readFile(EXAMPLE, 'utf8');
    expect(doc).toContain(example.trim());
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(10);

    await run(bin('openapi-typescript'), await documentedGeneration(), { cwd: dir });
    const types = await fs.readFile(path.join(dir, 'padtrack-api.d.ts'), 'utf8');
    expect(types).toContain('listPads: {');
    expect(types).toContain('Pad: {');
    await fs.copyFile(EXAMPLE, path.join(dir, 'list-pads.ts'));

    const compiled = await run(
      bin('tsc'),
      [
        '--strict',
        '--noEmit',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--types',
        'node',
        'list-pads.ts',
        'padtrack-api.d.ts',
      ],
      { cwd: dir },
    ).catch((error: { stdout?: string; code?: number }) => ({ stdout: `exit ${error.code}: ${error.stdout ?? ''}` }));
    expect(compiled.stdout).toBe('');

    const route = await createRoute(t.db, { name: 'Batangas - Calapan (client)' });
    const pads = await buildPads(t.db, route.id, 2);
    const listed = await run(bin('tsx'), ['list-pads.ts'], {
      cwd: dir,
      env: { ...process.env, PADTRACK_URL: address, PADTRACK_EMAIL: 'admin@padtrack.test', PADTRACK_PASSWORD: 'Admin@12345' },
    });
    expect(listed.stdout).toContain(`2 pads; `);
    for (const pad of pads)
      expect(listed.stdout).toContain(`${pad.number} ${pad.series_from}-${pad.series_to} Unused Batangas - Calapan (client)`);
    expect(t.documentViolations).toEqual([]);
  }, 300_000);
});
