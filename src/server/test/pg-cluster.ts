import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BIN_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory; a clear error when there is none. */
function binDir(): string {
  const versions = fs.existsSync(BIN_ROOT)
    ? fs.readdirSync(BIN_ROOT).filter((v) => fs.existsSync(path.join(BIN_ROOT, v, 'bin', 'pg_ctl')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error(
      `This test starts and stops its own PostgreSQL server and needs its binaries (initdb, pg_ctl) under ${BIN_ROOT}/<version>/bin: install Debian's postgresql package.`,
    );
  }
  return path.join(BIN_ROOT, newest, 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throw-away PostgreSQL server in a temp directory that a test may stop and start at will. PostgreSQL
 * refuses to run as root, so as root it runs as the postgres OS user.
 */
export async function startPgCluster() {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    return asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', cwd: dir })
      : execFileSync(command, args, { stdio: 'pipe', cwd: dir });
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const stop = (mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => void start(),
    stop: (mode: 'fast' | 'immediate' = 'fast') => void stop(mode),
    destroy: () => {
      try {
        stop('immediate');
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
