/**
 * `npm start`: builds the UI and compiles the server only when their inputs changed since the last build (a hash
 * stamped into each build folder), then runs the compiled server in this same process. Plain JavaScript run by node,
 * so a start with nothing changed neither loads tsx nor transpiles anything; tsx runs only the build, in a child.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, serverSourcesHash, sourcesHash, WEB_BUILD_INPUTS } from './build/build-state.js';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.resolve(process.env.WEB_DIR || path.join(root, 'dist'));
const serverDir = path.join(root, 'dist-server');
const serverMain = 'src/server/main.js';

/** Runs `npm run build -- --<part>` in a child, saying what it does: a first build takes a while and should not sit silent. */
function build(part, what, why, flags = []) {
  console.log(`PadTrack: building the ${what} (${why})...`);
  const started = Date.now();
  const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
  const result = spawnSync(process.execPath, [tsx, path.join(root, 'scripts/build/build.ts'), `--${part}`, ...flags], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, WEB_DIR: webDir },
  });
  if (result.status !== 0) {
    console.error(`PadTrack: building the ${what} failed (exit ${result.status ?? result.signal}); the server was not started.`);
    process.exit(1);
  }
  console.log(`PadTrack: ${what} built in ${Math.round((Date.now() - started) / 1000)} s.`);
}

if (!buildIsCurrent(webDir, 'index.html', sourcesHash(root, WEB_BUILD_INPUTS)))
  build('web', 'web interface', 'first start or the UI changed; this takes about a minute');
if (!buildIsCurrent(serverDir, serverMain, serverSourcesHash(root)))
  build('server', 'server', 'first start or the server changed; this takes a few seconds', ['--no-check']);
await import(pathToFileURL(path.join(serverDir, serverMain)).href);
