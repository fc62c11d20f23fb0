import path from 'node:path';
import { buildIsCurrent, sourcesHash, STAMP_FILE, WEB_BUILD_INPUTS, writeBuildStamp } from './build-state.js';

export { STAMP_FILE, WEB_BUILD_INPUTS };

/** One hash over the names and contents of every input file, so any edit, addition or removal changes it. */
export function webSourcesHash(root: string, inputs: readonly string[] = WEB_BUILD_INPUTS): string {
  return sourcesHash(root, inputs);
}

/** The build in outDir is stale when it has no index.html, no stamp, or a stamp of other inputs. */
export function webBuildIsCurrent(outDir: string, hash: string): boolean {
  return buildIsCurrent(outDir, 'index.html', hash);
}

export function writeWebBuildStamp(outDir: string, hash: string): void {
  writeBuildStamp(outDir, hash);
}

/** Builds the UI into outDir with the project's vite config and stamps it with the hash of its inputs. */
export async function buildWeb(root: string, outDir: string, hash: string): Promise<void> {
  const { build } = await import('vite');
  await build({ root, configFile: path.join(root, 'vite.config.ts'), build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  writeWebBuildStamp(outDir, hash);
}
