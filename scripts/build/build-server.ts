import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serverSourcesHash, writeBuildStamp } from './build-state.js';

/**
 * The server as plain JavaScript in dist-server/ (tsc rewrites the .ts imports), with its SQL migrations beside it,
 * stamped with the hash of its inputs so `npm start` compiles it again only when they change. `check: false` only
 * transpiles (a third of the time): `npm start` runs what is there, as tsx did; `npm run build` and the tests type-check.
 */
export function buildServer(root: string, options: { out?: string; check?: boolean } = {}): string {
  const out = options.out ?? path.join(root, 'dist-server');
  const hash = serverSourcesHash(root);
  fs.rmSync(out, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(root, 'tsconfig.server.json'),
      '--outDir',
      out,
      ...(options.check === false ? ['--noCheck'] : []),
    ],
    { stdio: 'inherit' },
  );
  fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(out, 'src/server/db/migrations'), { recursive: true });
  writeBuildStamp(out, hash);
  return path.join(out, 'src/server/main.js');
}
