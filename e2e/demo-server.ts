import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** A server of its own on a fresh embedded database loaded with the demo data (`--demo`), for tests that need its past months. */
export async function startDemoServer(port: number): Promise<{ base: string; stop: () => void }> {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = `.tmp/e2e-demo-${port}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const server: ChildProcess = spawn('npx', ['tsx', 'src/server/main.ts', '--demo'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_URL: base, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  };
  for (let i = 0; i < 220; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  stop();
  throw new Error('the demo server did not start');
}
