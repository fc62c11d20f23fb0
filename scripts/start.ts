/**
 * `npm start`: builds the UI only when its inputs changed since the last build (hash stamped into the build
 * folder), then runs the server in this same process.
 */
import path from 'node:path';
import { buildWeb, webBuildIsCurrent, webSourcesHash } from './build/web-build-state.ts';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.env.WEB_DIR || path.join(root, 'dist'));
const sourcesHash = webSourcesHash(root);
if (!webBuildIsCurrent(outDir, sourcesHash)) {
  // The first start (or one after the UI changed) builds it first, which takes a minute: say so rather than sit silent.
  console.log('PadTrack: building the web interface (first start or the UI changed; this takes about a minute)...');
  const started = Date.now();
  await buildWeb(root, outDir, sourcesHash);
  console.log(`PadTrack: web interface built in ${Math.round((Date.now() - started) / 1000)} s; starting the server...`);
}
await import('../src/server/main.ts');
