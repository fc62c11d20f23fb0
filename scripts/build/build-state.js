/**
 * Whether a build folder is current: a hash over the names and contents of the build's inputs, stamped into the folder
 * after a successful build. Plain JavaScript, so `npm start` can check both builds before (and without) loading tsx.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Everything the built UI depends on: sources, build configuration and the installed dependency versions. */
export const WEB_BUILD_INPUTS = [
  'src/web',
  'src/shared',
  'public',
  'index.html',
  'vite.config.ts',
  'postcss.config.cjs',
  'scripts/build/precompress-plugin.ts',
  'scripts/build/prerender-sign-in-plugin.ts',
  'scripts/build/sign-in-markup.tsx',
  'package-lock.json',
];

/** Everything the compiled server (dist-server/) depends on; its tests are left out, tsc does not compile them. */
export const SERVER_BUILD_INPUTS = [
  'src/server',
  'src/shared',
  'tsconfig.json',
  'tsconfig.server.json',
  'scripts/build/build-server.ts',
  'package-lock.json',
];

/** Written into the build folder after a successful build; holds the hash of the inputs it was built from. */
export const STAMP_FILE = '.sources-hash';

const isServerTest = (file) => file.endsWith('.test.ts') || file.split(path.sep).join('/').startsWith('src/server/test/');

function filesUnder(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(root, path.join(entry, name)));
}

/** One hash over the names and contents of every input file, so any edit, addition or removal changes it. */
export function sourcesHash(root, inputs, options = {}) {
  const skip = options.skipTests ? isServerTest : () => false;
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => filesUnder(root, entry)).filter((file) => !skip(file))) {
    hash
      .update(file.split(path.sep).join('/'))
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The hash of the server's inputs, its tests left out. */
export const serverSourcesHash = (root) => sourcesHash(root, SERVER_BUILD_INPUTS, { skipTests: true });

/** The build in outDir is stale when it lacks its main file (relative to outDir), has no stamp, or a stamp of other inputs. */
export function buildIsCurrent(outDir, mainFile, hash) {
  const stamp = path.join(outDir, STAMP_FILE);
  if (!fs.existsSync(path.join(outDir, mainFile)) || !fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, 'utf8').trim() === hash;
}

export function writeBuildStamp(outDir, hash) {
  fs.writeFileSync(path.join(outDir, STAMP_FILE), `${hash}\n`);
}
