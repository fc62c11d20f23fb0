import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { layers } from './eslint/layers.js';
import { size } from './eslint/size.js';
import { TABLE_OWNERS, TABLE_READS } from './scripts/architecture/table-owners.js';

const root = import.meta.dirname;
const serverFeatures = path.join(root, 'src/server/features');
const webFeatures = path.join(root, 'src/web/features');
/**
 * The allowed edges between server features, each to the other feature's public face: `read-model.ts` (what others read
 * of it), `lifecycle.ts` (what others do through it) and `documents.ts` (what it prints). Everything else in a feature
 * folder, its repo.ts first, is private to it. The owner maps are scripts/architecture/table-owners.js.
 */
const ALLOWED_SERVER_IMPORTS = {
  /** Custodies and reports build on the invoice; routes that take an Idempotency-Key replay through its lifecycle. */
  custodies: { invoices: ['lifecycle.ts', 'read-model.ts'], pads: ['read-model.ts'], idempotency: ['lifecycle.ts'] },
  /** Issue 35: every PDF prints the operator's identity (settings' read-model) in its header. */
  reports: { invoices: ['read-model.ts'], users: ['read-model.ts'], settings: ['read-model.ts'] },
  /** docs/design.md §8: the ledger records what the invoice lifecycle and the pad lifecycle change. */
  invoices: {
    ledger: ['lifecycle.ts'],
    pads: ['read-model.ts'],
    routes: ['read-model.ts'],
    users: ['read-model.ts'],
    settings: ['read-model.ts'],
    /** Issue 38: a pad of a retired series is not issued. */
    'registered-series': ['read-model.ts'],
  },
  pads: {
    ledger: ['lifecycle.ts', 'read-model.ts'],
    invoices: ['read-model.ts'],
    routes: ['read-model.ts'],
    users: ['read-model.ts'],
    idempotency: ['lifecycle.ts'],
    /** Issue 36: a pad names the cancellations and losses waiting for approval, and usage refuses those numbers. */
    outcomes: ['read-model.ts'],
    /** Issue 35: a pad label prints the operator's name. */
    settings: ['read-model.ts'],
    /** Issue 38: every usage at an e-invoicing establishment is linked to its outage or opens an exception (or is refused). */
    outages: ['lifecycle.ts'],
  },
  ledger: {
    invoices: ['read-model.ts'],
    /** Issue 39: the full verifier reads every pad as COPY text (check-read-model.ts, beside a read-model.ts at its size limit). */
    pads: ['read-model.ts', 'check-read-model.ts'],
    routes: ['read-model.ts'],
    users: ['read-model.ts'],
    settings: ['read-model.ts'],
    /** Issue 38: a RAAF is not certified while a paper-use exception of its holder's month is open. */
    outages: ['read-model.ts'],
  },
  dashboard: { invoices: ['read-model.ts'], pads: ['read-model.ts'], counts: ['read-model.ts'] },
  /** Issue 37: each alert kind reads the live tables and the ledger through their owners (never a copy of a rule). */
  notifications: {
    /** RAAF due: the month's RAAF holders and certificates; low stock and series: the numbers used in 30 days. */
    ledger: ['read-model.ts'],
    /** Count due: the count schedule Needs my action shows. */
    counts: ['read-model.ts'],
    /** Low stock and series: the unused numbers of held and generated pads. */
    pads: ['read-model.ts'],
    /** Low stock: the pads in transit to a branch. */
    invoices: ['read-model.ts'],
    /** Series nearly used up: the registered series of each establishment and route. */
    'registered-series': ['read-model.ts'],
    /** Alert texts name people, branches and routes; everyone is read once per run. */
    users: ['read-model.ts'],
    routes: ['read-model.ts'],
    /** Loss reported: the confirm queue of each approver, as Needs my action. */
    incidents: ['read-model.ts'],
    /** Digests and immediate alerts are put in the outbox in the transaction that decided them. */
    deliveries: ['lifecycle.ts'],
    /** Paper-use exceptions (issue 38): the open ones. */
    outages: ['read-model.ts'],
    /** Reorder points name their branch. */
    branches: ['read-model.ts'],
  },
  'my-actions': {
    invoices: ['read-model.ts'],
    outcomes: ['read-model.ts'],
    incidents: ['read-model.ts'],
    counts: ['read-model.ts'],
    ledger: ['read-model.ts'],
    /** Issue 38: open paper-use exceptions wait for Accounting. */
    outages: ['read-model.ts'],
  },
  /** Issue 35: a badge prints the operator's name. */
  users: { branches: ['read-model.ts'], accounts: ['lifecycle.ts'], settings: ['read-model.ts'] },
  /** DESIGN §9: outcomes and loss incidents change numbers through the pad's lifecycle. */
  outcomes: { pads: ['lifecycle.ts'], users: ['read-model.ts'] },
  /** Issue 35: the Notice of Loss names the ATP of each lost range and the invoice a lost pad travelled on, which stops carrying it. */
  incidents: {
    pads: ['lifecycle.ts', 'read-model.ts'],
    users: ['read-model.ts'],
    idempotency: ['lifecycle.ts'],
    invoices: ['lifecycle.ts', 'read-model.ts'],
    'registered-series': ['read-model.ts'],
    settings: ['read-model.ts'],
  },
  /** docs/design.md §9 counts settle variances through the existing actions: range usage and loss incidents. */
  counts: {
    pads: ['lifecycle.ts', 'read-model.ts', 'documents.ts'],
    incidents: ['lifecycle.ts', 'read-model.ts'],
    users: ['read-model.ts'],
    /** Issue 36: a scanned pad in transit says on which invoice and with whom. */
    invoices: ['read-model.ts'],
    /** Issue 36: a deleted pad's label scanned in a count says when it was voided. */
    ledger: ['read-model.ts'],
    /** A closed count's certificate keeps the operator identity it first printed. */
    settings: ['read-model.ts', 'lifecycle.ts'],
  },
  /** DESIGN §10: opening balances go in through the pad's lifecycle; users through theirs; set-password links through accounts. */
  imports: { pads: ['lifecycle.ts', 'read-model.ts'], users: ['lifecycle.ts', 'read-model.ts'], accounts: ['lifecycle.ts'] },
  /** Issue 37: the outbox sender skips the mail of a deactivated user. */
  deliveries: { users: ['read-model.ts'] },
  /** Issue 38: an establishment names who last set it and checks the branch exists. */
  establishments: { users: ['read-model.ts'], branches: ['read-model.ts'] },
  /**
   * Issue 38: an outage is declared at a covered establishment, names its people and branch, and freezes once a certified
   * RAAF (ledger) relies on it.
   */
  outages: {
    establishments: ['read-model.ts'],
    users: ['read-model.ts'],
    branches: ['read-model.ts'],
    ledger: ['read-model.ts'],
    /** Issue 38: replacements and the summary list name each paper range's pad and route; the summary prints the operator. */
    pads: ['read-model.ts'],
    routes: ['read-model.ts'],
    settings: ['read-model.ts'],
    /** Issue 38: replacement e-invoices are imported from a file read within the go-live import's bounds. */
    imports: ['read-model.ts'],
    /** Issue 38: a paper use is refused or recorded by the role of the pad's registered series. */
    'registered-series': ['read-model.ts'],
  },
  /** The inventory of unused forms folds the ledger at a date and names pads, routes, people and in-transit invoices. */
  'registered-series': {
    ledger: ['lifecycle.ts', 'read-model.ts'],
    pads: ['lifecycle.ts', 'read-model.ts'],
    routes: ['read-model.ts'],
    users: ['read-model.ts'],
    invoices: ['read-model.ts'],
    settings: ['read-model.ts'],
  },
};

/** Infrastructure outside the features that talks to Drizzle or the schema itself: sign-in, the list sorter, the reference-data factory. */
const DRIZZLE_INFRASTRUCTURE = ['src/server/lib/auth.ts', 'src/server/lib/sorting.ts', 'src/server/lib/reference-data.ts'];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const subfolders = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
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
          : 'Server features import another only along eslint.config.js ALLOWED_SERVER_IMPORTS; call the owning feature instead.';
      patterns.push(into(dir, path.join(featuresDir, other), message, allowed ?? []));
    }
  }
  return patterns;
}

const DRIZZLE = {
  regex: '^drizzle-orm(/|$)',
  message:
    'Only repo files (repo.ts, read-model.ts, a private *-repo.ts; and db/, test/) talk to Drizzle; routes and services call the repo.',
};
const allTables = Object.values(TABLE_OWNERS).flat();
/** A feature's repo.ts may grow private siblings by job, each named `*-repo.ts` (invoices/list-repo.ts). */
const isRepoFile = (name) => name === 'repo.ts' || name === 'read-model.ts' || name.endsWith('-repo.ts');
const schemaDir = path.join(root, 'src/server/db/schema');
/** Each file of src/server/db/schema/ with the names it exports (`export const pads = pgTable(…)`). */
const schemaFiles = fs
  .readdirSync(schemaDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => {
    const file = path.join(schemaDir, name);
    const names = [...fs.readFileSync(file, 'utf8').matchAll(/^export const (\w+)/gm)].map((match) => match[1]);
    return { file, names };
  });

/** The schema imports of a feature folder's files: only its own tables and the few it may read, whichever file defines them. */
function tableRules(dir) {
  const feature = path.relative(serverFeatures, dir).split(path.sep)[0];
  const allowed = new Set([...(TABLE_OWNERS[feature] ?? []), ...(TABLE_READS[feature] ?? [])]);
  const forbidden = allTables.filter((table) => !allowed.has(table));
  return schemaFiles
    .map(({ file, names }) => ({
      name: relative(dir, file),
      importNames: forbidden.filter((table) => names.includes(table)),
      message: `A feature imports only its own tables (eslint.config.js TABLE_OWNERS) and the few of TABLE_READS; call the owning feature's repo instead.`,
    }))
    .filter((rule) => rule.importNames.length > 0);
}

const boundaryConfigs = directories(path.join(root, 'src')).flatMap((dir) => {
  const patterns = boundaries(dir);
  const folder = path.relative(root, dir).split(path.sep).join('/');
  const configs = [];
  const restrict = (files, rule) => configs.push({ files, rules: { 'no-restricted-imports': ['error', rule] } });
  if (dir.startsWith(path.join(root, 'src/shared'))) {
    if (patterns.length > 0) restrict([`${folder}/*.{ts,tsx}`], { patterns });
    restrict([`${folder}/*.test.ts`], { patterns: boundaries(dir, { test: true }) });
    return configs;
  }
  if (
    !dir.startsWith(path.join(root, 'src/server')) ||
    dir.startsWith(path.join(root, 'src/server/db')) ||
    dir.startsWith(path.join(root, 'src/server/test'))
  ) {
    if (patterns.length > 0) restrict([`${folder}/*.{ts,tsx}`], { patterns });
    return configs;
  }
  const inFeature = dir.startsWith(serverFeatures + path.sep);
  const paths = inFeature ? tableRules(dir) : [];
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  for (const name of files) {
    const file = `${folder}/${name}`;
    const drizzleFree = !isRepoFile(name) && !DRIZZLE_INFRASTRUCTURE.includes(file);
    restrict([file], { paths, patterns: drizzleFree ? [...patterns, DRIZZLE] : patterns });
  }
  if (patterns.length > 0) restrict([`${folder}/*.test.ts`], { patterns });
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
  ...layers(root),
  ...size(),
);
