/**
 * The goal of docs/BENCHMARKS.md "Start": seconds from launch to a healthy /api/health on existing data (embedded database), for
 * the old start (`vite build && tsx src/server/main.ts`), `npm start` with UI sources changed (it builds),
 * `npm start` with nothing changed (it must not build), and the production start `node dist-server/…`.
 *   npx tsx bench/start.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer } from '../scripts/build/build-server.ts';
import { loadAverage, machine, median, ROOT, saveResult } from './support.ts';

const PORT = Number(process.env.BENCH_START_PORT ?? 3196);
const dataDir = path.join(ROOT, '.tmp/bench-start-data');
const webDir = path.join(ROOT, '.tmp/bench-start-web');
const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');

/** Launches the command, polls /api/health every 25 ms, and stops the server once it answers. */
async function timeToHealthy(command: string, args: string[]): Promise<number> {
  const start = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Admin@12345',
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`)
        .then((res) => res.ok)
        .catch(() => false);
      if (ok) return Math.round(performance.now() - start);
      if (performance.now() - start > 180_000) throw new Error(`${command} was not healthy within 180 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const oldStart = [
  '-c',
  `"${process.execPath}" "${vite}" build --outDir "${webDir}" --emptyOutDir --logLevel warn && "${process.execPath}" "${tsx}" src/server/main.ts`,
];
const npmStart = [tsx, path.join(ROOT, 'scripts/start.ts')];

fs.rmSync(webDir, { recursive: true, force: true });
await timeToHealthy(process.execPath, npmStart);
const runs = {
  before_vite_build_then_tsx_ms: [await timeToHealthy('sh', oldStart)],
  npm_start_ui_changed_ms: [] as number[],
  npm_start_nothing_changed_ms: [] as number[],
  node_dist_server_ms: [] as number[],
};
fs.rmSync(webDir, { recursive: true, force: true });
runs.npm_start_ui_changed_ms.push(await timeToHealthy(process.execPath, npmStart));
for (let i = 0; i < 3; i += 1) runs.npm_start_nothing_changed_ms.push(await timeToHealthy(process.execPath, npmStart));
const serverMain = buildServer(ROOT);
for (let i = 0; i < 3; i += 1) runs.node_dist_server_ms.push(await timeToHealthy(process.execPath, [serverMain]));

saveResult('start', {
  date: new Date().toISOString(),
  machine: machine(),
  load_average_1m: loadAverage(),
  database: 'PGlite, existing data directory',
  runs,
  npm_start_nothing_changed_median_ms: median(runs.npm_start_nothing_changed_ms),
  node_dist_server_median_ms: median(runs.node_dist_server_ms),
  goal: 'npm start with nothing changed ≤ 3,000 ms to healthy',
});
