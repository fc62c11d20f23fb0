/**
 * `npm start`: builds the UI only when its inputs changed since the last build (hash stamped into the build
 * folder), then runs the server in this same process.
 */
import path from 'node:path';
import { buildWeb, webBuildIsCurrent, webSourcesHash } from './build/web-build-state.ts';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.env.WEB_DIR || path.join(root, 'dist'));
const sourcesHash = webSourcesHash(root);
if (!webBuildIsCurrent(outDir, sourcesHash)) await buildWeb(root, outDir, sourcesHash);
await import('../src/server/main.ts');
