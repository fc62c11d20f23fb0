import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const serverFeatures = path.join(root, 'src/server/features');
const webFeatures = path.join(root, 'src/web/features');
/**
 * The allowed edges between server features: custodies and reports build on the invoice; the ledger's writer is
 * called by the two features whose state changes it records (DESIGN §8: the invoice lifecycle and the pad service).
 * `null` allows the whole feature, a list only those files.
 */
const ALLOWED_SERVER_IMPORTS = {
  custodies: { invoices: null },
  reports: { invoices: null },
  invoices: { ledger: ['writer.ts'] },
  pads: { ledger: ['writer.ts'] },
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const subfolders = (dir) => fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const relative = (fromDir, target) => {
  const rel = path.relative(fromDir, target).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};
const into = (fromDir, target, message, except = []) => {
  const allowed = except.length > 0 ? `(?!(${except.map(escape).join('|')})$)` : '';
  return { regex: `^${escape(relative(fromDir, target))}(/${allowed}|$)`, message };
};

function directories(dir) {
  return [dir, ...subfolders(dir).flatMap((name) => directories(path.join(dir, name)))];
}

/** The import patterns that encode the layout, for the files of one folder. */
function boundaries(dir, { test = false } = {}) {
  const patterns = [];
  const inside = (parent) => dir === parent || dir.startsWith(parent + path.sep);
  if (inside(path.join(root, 'src/shared'))) {
    patterns.push(
      into(dir, path.join(root, 'src/server'), 'src/shared is used by both sides and imports neither.'),
      into(dir, path.join(root, 'src/web'), 'src/shared is used by both sides and imports neither.'),
      test
        ? { regex: '^(?!\\.|zod$|vitest$)', message: 'src/shared imports no package but zod (and vitest in tests).' }
        : { regex: '^(?!\\.|zod$)', message: 'src/shared imports no package but zod.' },
    );
  }
  for (const [featuresDir, side] of [
    [serverFeatures, 'server'],
    [webFeatures, 'web'],
  ]) {
    const own = subfolders(featuresDir).find((name) => inside(path.join(featuresDir, name)));
    if (!own) continue;
    for (const other of subfolders(featuresDir)) {
      if (other === own) continue;
      const allowed = side === 'server' ? ALLOWED_SERVER_IMPORTS[own]?.[other] : undefined;
      if (allowed === null) continue;
      const message =
        side === 'web'
          ? 'A web feature never imports another; shared pieces go to src/web/components or src/web/lib.'
          : 'Server features import no other feature, except custodies and reports building on invoices and the ledger writer called by invoices and pads.';
      patterns.push(into(dir, path.join(featuresDir, other), message, allowed ?? []));
    }
  }
  return patterns;
}

const DRIZZLE = { regex: '^drizzle-orm(/|$)', message: 'Only repo files (and db/, test/) talk to Drizzle; routes and services call the repo.' };

const boundaryConfigs = directories(path.join(root, 'src')).flatMap((dir) => {
  const patterns = boundaries(dir);
  const folder = path.relative(root, dir).split(path.sep).join('/');
  const configs = [];
  if (patterns.length > 0) {
    configs.push({ files: [`${folder}/*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns }] } });
  }
  if (dir.startsWith(path.join(root, 'src/shared'))) {
    configs.push({ files: [`${folder}/*.test.ts`], rules: { 'no-restricted-imports': ['error', { patterns: boundaries(dir, { test: true }) }] } });
  }
  if (dir.startsWith(serverFeatures + path.sep)) {
    configs.push({
      files: [`${folder}/routes.ts`, `${folder}/service.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, DRIZZLE] }] },
    });
  }
  return configs;
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-server/', 'data/', '.tmp/', 'test-results/', 'playwright-report/', 'docs/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...boundaryConfigs,
);
