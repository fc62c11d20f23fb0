/**
 * `npm run build`: the UI into dist/ (or WEB_DIR) and the server compiled to plain JavaScript in dist-server/, each
 * stamped with the hash of its inputs so `npm start` does not build it again; run in production with
 * `node dist-server/src/server/main.js`. `-- --web` or `-- --server` builds only that one (`npm start` asks for the stale ones, the server with `--no-check`:
 * transpiled without the type check, which `npm test` does).
 */
import path from 'node:path';
import { buildServer } from './build-server.ts';
import { buildWeb, webSourcesHash } from './web-build-state.ts';

const root = path.resolve(import.meta.dirname, '../..');
const only = process.argv.slice(2).filter((arg) => arg === '--web' || arg === '--server');
if (only.length === 0 || only.includes('--web')) {
  await buildWeb(root, path.resolve(process.env.WEB_DIR || path.join(root, 'dist')), webSourcesHash(root));
}
if (only.length === 0 || only.includes('--server')) buildServer(root, { check: !process.argv.includes('--no-check') });
