import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The server as plain JavaScript in dist-server/ (tsc rewrites the .ts imports), with its SQL migrations beside it. */
export function buildServer(root: string): string {
  const out = path.join(root, 'dist-server');
  fs.rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.server.json')], {
    stdio: 'inherit',
  });
  fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(out, 'src/server/db/migrations'), { recursive: true });
  return path.join(out, 'src/server/main.js');
}
