import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const MESSAGES = {
  shared: 'src/shared is used by both sides and imports neither server nor web.',
  sharedLayer:
    'A shared layer (server/lib, server/db, web/lib, web/components) never imports a feature; move the piece it needs into the layer or src/shared.',
  webServer: 'src/web never imports src/server; what both sides need lives in src/shared.',
};
/** The project's own config; `ignore: false` because `npm run lint` skips the planted fixtures. */
const eslint = new ESLint({ cwd: root, ignore: false });
const fixture = (file: string) => path.join(import.meta.dirname, 'fixtures/layers/src', file);

/** Each problem lint finds in a fixture file, as `rule: message`. */
async function problems(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([fixture(file)]);
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

/** The problems of a text linted as if it were the file at `file` inside the real src tree (it need not exist). */
async function problemsAt(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

const restricted = (imported: string, message: string) =>
  `import-x/no-restricted-paths: Unexpected path "${imported}" imported in restricted zone. ${message}`;

describe('layers and cycles', () => {
  it('when a shared layer imports a feature, then lint fails with the layer rule', async () => {
    for (const [file, imported] of [
      ['server/lib/imports-feature.ts', '../features/parcels/service.ts'],
      ['server/db/imports-feature.ts', '../features/parcels/service.ts'],
      ['web/components/imports-feature.ts', '../features/parcels/parcel-title.ts'],
    ]) {
      expect(await problems(file), file).toEqual([restricted(imported, MESSAGES.sharedLayer)]);
    }
  });

  it('when src/shared imports the server, then lint fails', async () => {
    expect(await problems('shared/imports-server.ts')).toEqual([restricted('../server/lib/format-parcel.ts', MESSAGES.shared)]);
  });

  it('when the web imports the server, then lint fails', async () => {
    expect(await problems('web/lib/imports-server.ts')).toEqual([restricted('../../server/lib/format-parcel.ts', MESSAGES.webServer)]);
  });

  it('when two modules import each other, then lint reports the cycle on both', async () => {
    for (const file of ['server/lib/cycle-a.ts', 'server/lib/cycle-b.ts']) {
      expect(await problems(file), file).toEqual(['import-x/no-cycle: Dependency cycle detected']);
    }
  });

  it('when features build on the shared layers and src/shared, then lint passes', async () => {
    for (const file of [
      'shared/parcel-number.ts',
      'server/lib/format-parcel.ts',
      'server/features/parcels/service.ts',
      'web/lib/parcel-link.ts',
      'web/features/parcels/parcel-title.ts',
    ]) {
      expect(await problems(file), file).toEqual([]);
    }
  });

  it('when the real src/server/lib imports a real feature and src/web the server, then the same rules fire', async () => {
    const module = fs
      .readdirSync(path.join(root, 'src/server/features'), { recursive: true, encoding: 'utf8' })
      .find((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    const imported = `../features/${module}`;
    expect(await problemsAt('src/server/lib/planted.ts', `import * as f from '${imported}';\nexport const p = f;\n`)).toContain(
      restricted(imported, MESSAGES.sharedLayer),
    );
    expect(await problemsAt('src/web/lib/planted.ts', "import * as c from '../../server/config.ts';\nexport const p = c;\n")).toContain(
      restricted('../../server/config.ts', MESSAGES.webServer),
    );
  });

  it('when the whole project is linted, then the planted fixtures are skipped', async () => {
    expect(await new ESLint({ cwd: root }).isPathIgnored(fixture('server/lib/cycle-a.ts'))).toBe(true);
  });
});
