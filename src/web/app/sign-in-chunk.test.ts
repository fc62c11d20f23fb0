import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_CODE } from '../../../vite.config.ts';

const WEB = path.resolve(import.meta.dirname, '..');
/** Static imports only: `import type` is erased and `import()` (the lazy screens) starts another chunk. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^;'"]*?\sfrom\s+)?'([^']+)';/gm;

/** Every package the given files bring with them, found by following their static imports through our files. */
function packagesReachedFrom(entries: string[]): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, target] of fs.readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (target.startsWith('.')) {
        if (/\.(tsx?)$/.test(target)) visit(path.resolve(path.dirname(file), target));
      } else {
        packages.add(target.startsWith('@') ? target.split('/').slice(0, 2).join('/') : target.split('/')[0]);
      }
    }
  };
  entries.forEach(visit);
  return packages;
}

describe('the sign-in chunk (docs/BENCHMARKS.md "The phone at the pier": /login ≤ 150 kB)', () => {
  it('when main.tsx is followed through its static imports, then no schema library, chart, scanner or offline store is reached', () => {
    const packages = packagesReachedFrom([path.join(WEB, 'main.tsx')]);
    expect(packages).toContain('react-router');
    for (const heavy of ['zod', 'recharts', '@mantine/charts', '@mantine/form', '@mantine/dates', 'html5-qrcode', 'idb']) {
      expect(packages, `${heavy} reached the sign-in chunk`).not.toContain(heavy);
    }
  });

  it('when the shared web code of every signed-in screen is followed (vite.config.ts "app" chunk), then zod is not reached, so a list screen loads no schema library', () => {
    const shared = ['components', 'lib'].flatMap((folder) =>
      fs
        .readdirSync(path.join(WEB, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !FORM_CODE.test(`/${file}`))
        .map((file) => path.join(WEB, folder, file)),
    );
    expect(shared.length).toBeGreaterThan(20);
    expect(packagesReachedFrom(shared)).not.toContain('zod');
  });
});
