import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const running: ReturnType<typeof spawn>[] = [];

const dataDirs: string[] = [];

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs a TypeScript entry point on a fresh embedded database and collects what it prints until `until` holds or it exits. */
function run(entry: string, env: Record<string, string>, until: (stdout: string) => boolean = () => false) {
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'first-start-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'info', ADMIN_PASSWORD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ stdout: string; stderr: string; dataDir: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      if (until(stdout)) {
        clearInterval(timer);
        resolve({ stdout, stderr, dataDir });
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0 || until(stdout)) resolve({ stdout, stderr, dataDir });
      else reject(new Error(`exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
}

const boxLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('| '));

describe('first start and demo output', () => {
  it('when the server starts on an empty database, then a plain box shows the address and the generated admin password, which signs in', async () => {
    const port = 4390 + Math.floor(Math.random() * 50);
    const url = `http://127.0.0.1:${port}`;
    const { stdout } = await run(
      'src/server/main.ts',
      { PORT: String(port), HOST: '127.0.0.1', APP_URL: url, ADMIN_EMAIL: 'first@padtrack.test' },
      (out) => /\+-+\+\n(?:\|.*\n)+\+-+\+/.test(out),
    );

    const box = boxLines(stdout);
    expect(box[0]).toContain(`PadTrack is running at ${url}`);
    const password = box.map((line) => /Password: (\S+)/.exec(line)?.[1]).find(Boolean);
    expect(password).toBeTruthy();
    const jsonLines = stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(jsonLines.filter((line) => line.includes(password as string))).toEqual([]);

    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@padtrack.test', password }),
    });
    expect(login.status).toBe(200);
    const session = (await login.json()) as { token: string; must_change_credentials: boolean };
    expect(session.must_change_credentials).toBe(true);
    const refused = await fetch(`${url}/api/my-actions`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(refused.status).toBe(403);
  });

  it('when npm start has to build the UI first, then it says so before the build and before the server starts', async () => {
    const port = 4440 + Math.floor(Math.random() * 50);
    const url = `http://127.0.0.1:${port}`;
    const webDir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'first-start-web-'));
    dataDirs.push(webDir);
    const { stdout } = await run(
      'scripts/start.js',
      { PORT: String(port), HOST: '127.0.0.1', APP_URL: url, ADMIN_EMAIL: 'first@padtrack.test', WEB_DIR: webDir },
      (out) => out.includes('PadTrack is running at'),
    );
    const building = stdout.indexOf('PadTrack: building the web interface');
    const built = stdout.indexOf('PadTrack: web interface built in');
    expect(building).toBeGreaterThanOrEqual(0);
    expect(built).toBeGreaterThan(building);
    expect(stdout.indexOf('PadTrack is running at')).toBeGreaterThan(built);
    expect(fs.existsSync(path.join(webDir, 'index.html'))).toBe(true);
  }, 240_000);

  it('when the demo is loaded, then it prints the accounts table in a box and no request log lines', async () => {
    const { stdout, stderr } = await run('scripts/demo.ts', {});
    expect(stdout).toContain('Demo data loaded.');
    expect(stdout).not.toContain('incoming request');
    expect(stdout).not.toContain('request completed');
    expect(stderr).toBe('');
    const box = boxLines(stdout);
    expect(box.some((line) => line.includes('role  1  admin@padtrack-demo.ph'))).toBe(true);
    expect(box.some((line) => line.includes('role 11  messenger@padtrack-demo.ph'))).toBe(true);
    expect(stdout.trimEnd().endsWith('+')).toBe(true);
  }, 240_000);
});
