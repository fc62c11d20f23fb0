/**
 * `npm run build`: the UI into dist/ (stamped, so `npm start` will not build it again) and the server compiled
 * to plain JavaScript in dist-server/, run in production with `node dist-server/src/server/main.js`.
 */
import path from 'node:path';
import { buildServer } from './build-server.ts';
import { buildWeb, webSourcesHash } from './web-build-state.ts';

const root = path.resolve(import.meta.dirname, '../..');
await buildWeb(root, path.join(root, 'dist'), webSourcesHash(root));
buildServer(root);
