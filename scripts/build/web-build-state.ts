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
  'package-lock.json',
];

/** Written into the build folder after a successful build; holds the hash of the inputs it was built from. */
export const STAMP_FILE = '.sources-hash';

function filesUnder(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(root, path.join(entry, name)));
}

/** One hash over the names and contents of every input file, so any edit, addition or removal changes it. */
export function webSourcesHash(root: string, inputs: readonly string[] = WEB_BUILD_INPUTS): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => filesUnder(root, entry))) {
    hash
      .update(file.split(path.sep).join('/'))
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The build in outDir is stale when it has no index.html, no stamp, or a stamp of other inputs. */
export function webBuildIsCurrent(outDir: string, sourcesHash: string): boolean {
  const stamp = path.join(outDir, STAMP_FILE);
  if (!fs.existsSync(path.join(outDir, 'index.html')) || !fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, 'utf8').trim() === sourcesHash;
}

export function writeWebBuildStamp(outDir: string, sourcesHash: string): void {
  fs.writeFileSync(path.join(outDir, STAMP_FILE), `${sourcesHash}\n`);
}

/** Builds the UI into outDir with the project's vite config and stamps it with the hash of its inputs. */
export async function buildWeb(root: string, outDir: string, sourcesHash: string): Promise<void> {
  const { build } = await import('vite');
  await build({ root, configFile: path.join(root, 'vite.config.ts'), build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  writeWebBuildStamp(outDir, sourcesHash);
}
