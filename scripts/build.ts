/**
 * `npm run build`: the UI into dist/ (stamped, so `npm start` will not build it again) and the server compiled
 * to plain JavaScript in dist-server/, run in production with `node dist-server/src/server/main.js`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildWeb, webSourcesHash } from './web-build-state.ts';

const root = path.resolve(import.meta.dirname, '..');
await buildWeb(root, path.join(root, 'dist'), webSourcesHash(root));

const serverOut = path.join(root, 'dist-server');
fs.rmSync(serverOut, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.server.json')], {
  stdio: 'inherit',
});
fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(serverOut, 'src/server/db/migrations'), { recursive: true });
