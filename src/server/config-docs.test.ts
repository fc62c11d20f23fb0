import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const OPERATIONS = path.join(root, 'docs/operations.md');

/**
 * The environment variables a source text reads: `env.NAME` (config.ts reads the `env` it is given), `process.env.NAME`
 * and `process.env['NAME']`. Only upper-case names count, as every setting is spelled.
 */
function envNamesIn(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\])/g)) {
    names.add(match[1] ?? match[2]);
  }
  return [...names].sort();
}

/** The names a document leaves out: a variable counts as documented when it appears in code style, `NAME`. */
function undocumented(names: readonly string[], doc: string): string[] {
  return names.filter((name) => !doc.includes(`\`${name}\``));
}

/** Every server source file that is not a test: where the running server (and its test harness) reads its settings. */
function serverSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the configuration documented in docs/operations.md', () => {
  it('when every variable the server reads is looked up in docs/operations.md, then none is missing', () => {
    const sources = serverSources(path.join(root, 'src/server'));
    const names = [...new Set(sources.flatMap((file) => envNamesIn(fs.readFileSync(file, 'utf8'))))].sort();
    expect(names).toContain('TWO_PARTY_HANDOVER');
    expect(names).toContain('WEB_DIR');
    expect(undocumented(names, fs.readFileSync(OPERATIONS, 'utf8'))).toEqual([]);
  });

  it('when config.ts is read, then each of its settings is found, whichever way the environment is indexed', () => {
    const config = fs.readFileSync(path.join(root, 'src/server/config.ts'), 'utf8');
    expect(envNamesIn(config)).toEqual(expect.arrayContaining(['PORT', 'DATABASE_OWNER_URL', 'CHECK_RESPONSES', 'TRUST_PROXY']));
    expect(envNamesIn('process.env[\'A_B\'] + process.env.C_D + env["E_F"] + env.path + process.env.G')).toEqual([
      'A_B',
      'C_D',
      'E_F',
      'G',
    ]);
  });

  it('when a planted variable is read but the document lacks it, then the check names exactly that variable', () => {
    const planted = "const dir = process.env.PLANTED_SPOOL_DIR ?? '/tmp';\nconst port = int(env.PORT, 3000);\n";
    const doc = '| `PORT` | `3000` | HTTP port |\n\nPLANTED_SPOOL_DIR is mentioned in prose only.\n';
    expect(undocumented(envNamesIn(planted), doc)).toEqual(['PLANTED_SPOOL_DIR']);
    expect(undocumented(envNamesIn(planted), `${doc}| \`PLANTED_SPOOL_DIR\` | /tmp | spool |\n`)).toEqual([]);
  });
});
