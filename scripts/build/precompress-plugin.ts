import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes file.br and file.gz beside every text file of the build, once, so the server sends them as they
 * are (@fastify/static preCompressed) instead of compressing on every request or not at all.
 */
export function precompress(): Plugin {
  return {
    name: 'padtrack-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = [...Object.keys(bundle), 'index.html'].filter((name, i, all) => COMPRESSIBLE.test(name) && all.indexOf(name) === i);
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const content = await fs.readFile(file).catch(() => null);
          if (!content || content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
            }),
            gzip(content, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}
