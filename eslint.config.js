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
 * The allowed edges between server features. A feature owns its tables (TABLE_OWNERS) and others call its repo or
 * service: custodies and reports build on the invoice; the ledger's writer is called by the two features whose state
 * changes it records (docs/design.md §8: the invoice lifecycle and the pad service); the ledger, the dashboard and
 * Needs my action read pads, invoices, routes and people through their owners' read functions.
 * `null` allows the whole feature, a list only those files.
 */
const ALLOWED_SERVER_IMPORTS = {
  custodies: { invoices: null, pads: ['repo.ts'], idempotency: ['service.ts'] },
  reports: { invoices: null },
  invoices: { ledger: ['writer.ts'], pads: ['repo.ts'] },
  pads: { ledger: ['writer.ts'], idempotency: ['service.ts'] },
  ledger: { invoices: ['read-model.ts'], pads: ['repo.ts'], routes: ['repo.ts'], users: ['names.ts', 'repo.ts'] },
  dashboard: { invoices: ['read-model.ts'], pads: ['repo.ts'], counts: ['repo.ts'] },
  'my-actions': {
    invoices: ['read-model.ts', 'repo.ts'],
    outcomes: ['repo.ts'],
    incidents: ['repo.ts'],
    counts: ['repo.ts'],
    ledger: ['repo.ts'],
  },
  users: { branches: ['repo.ts'], accounts: ['service.ts'] },
  /** DESIGN §9: outcomes and loss incidents change numbers through the pad service's one number module. */
  outcomes: { pads: ['numbers.ts'] },
  incidents: { pads: ['numbers.ts'], idempotency: ['service.ts'] },
  /** docs/design.md §9 counts settle variances through the existing actions: range usage and loss incidents. */
  counts: { pads: ['numbers.ts', 'repo.ts', 'labels.ts'], incidents: ['service.ts'], users: ['repo.ts'] },
  /** DESIGN §10: opening balances go in through the pad feature's opening module; users through their repo; links through accounts. */
  imports: { pads: ['opening.ts'], users: ['repo.ts'], accounts: ['service.ts'] },
  /** The inventory of unused forms folds the ledger at a date and names pads, routes, people and in-transit invoices. */
  'registered-series': {
    ledger: ['month-balances.ts', 'raaf-fold.ts', 'fold.ts', 'writer.ts'],
    pads: ['repo.ts'],
    routes: ['repo.ts'],
    users: ['names.ts'],
    invoices: ['read-model.ts'],
  },
};

/** Which feature owns each table of src/server/db/schema.ts; only its files import it (plus TABLE_READS). */
const TABLE_OWNERS = {
  accounts: ['accessTokens', 'passwordResets'],
  users: ['users', 'userStatuses'],
  roles: ['roles'],
  companies: ['companies', 'companyTypes'],
  routes: ['routes'],
  locations: ['locations'],
  branches: ['branches'],
  pads: ['pads', 'padStatuses', 'issuanceStatuses', 'padIdBlocks'],
  invoices: ['invoices', 'invoicePads', 'activities', 'invoiceTypes', 'invoiceStatuses', 'pendingHandOvers'],
  idempotency: ['idempotencyKeys'],
  reports: ['reports', 'reportInvoices'],
  ledger: [
    'padEvents',
    'raafCertificates',
    'raafMonthCloses',
    'raafMonthBalances',
    'ledgerVerifiedHeads',
    'ledgerVerifyRuns',
    'ledgerChecks',
  ],
  outcomes: ['outcomeRequests'],
  incidents: ['lossIncidents', 'lossIncidentPads', 'lossIncidentAttachments', 'lossIncidentFound', 'lossIncidentCounters'],
  setup: ['settings'],
  counts: ['countSessions', 'countItems', 'countResolutions'],
  imports: ['imports'],
  'registered-series': ['registeredSeries'],
};

/**
 * The other features' tables a repo may join or count, kept short on purpose: display joins of a list's names, and the
 * "12 pads use this route" counts behind a refused delete. Anything else goes through the owner's repo.
 */
const TABLE_READS = {
  accounts: ['users', 'userStatuses', 'roles', 'branches'],
  branches: ['companies', 'locations', 'invoices', 'pads', 'users'],
  companies: ['branches', 'routes'],
  invoices: ['branches', 'companies', 'locations', 'pads', 'padStatuses', 'issuanceStatuses', 'reportInvoices', 'routes', 'users'],
  locations: ['branches'],
  pads: ['branches', 'companies', 'invoicePads', 'routes', 'registeredSeries'],
  imports: ['branches', 'roles', 'routes', 'users'],
  'registered-series': ['branches', 'companies', 'routes'],
  reports: ['invoices', 'roles', 'users'],
  roles: ['users'],
  routes: ['companies', 'invoices', 'pads'],
  users: ['accessTokens', 'activities', 'branches', 'invoices', 'pads', 'reports', 'roles', 'routes'],
};

/** Infrastructure outside the features that talks to Drizzle or the schema itself: sign-in and the list sorter. */
const DRIZZLE_INFRASTRUCTURE = ['src/server/lib/auth.ts', 'src/server/lib/sorting.ts'];

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
  message: 'Only repo files (repo.ts, read-model.ts; and db/, test/) talk to Drizzle; routes and services call the repo.',
};
const allTables = Object.values(TABLE_OWNERS).flat();
const isRepoFile = (name) => name === 'repo.ts' || name === 'read-model.ts';

/** The schema import of a feature folder's files: only its own tables and the few it may read. */
function tableRule(dir) {
  const feature = path.relative(serverFeatures, dir).split(path.sep)[0];
  const allowed = new Set([...(TABLE_OWNERS[feature] ?? []), ...(TABLE_READS[feature] ?? [])]);
  const forbidden = allTables.filter((table) => !allowed.has(table));
  return {
    name: relative(dir, path.join(root, 'src/server/db/schema.ts')),
    importNames: forbidden,
    message: `A feature imports only its own tables (eslint.config.js TABLE_OWNERS) and the few of TABLE_READS; call the owning feature's repo instead.`,
  };
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
  const paths = inFeature ? [tableRule(dir)] : [];
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
);
