import { chromium, type Page } from '@playwright/test';
import fs from 'node:fs';
import { DEMO_PASSWORD } from '../src/server/demo/accounts.ts';

/**
 * The README's pictures, taken from a running demo (`npm run demo` on a fresh data folder) at 1280x800 and 390x844:
 * `npx tsx scripts/screenshots.ts [base URL] [only these files, a regular expression]` writes `<file>-1280.png` and `<file>-390.png`.
 */
const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const only = new RegExp(process.argv[3] ?? '.');
const out = 'docs/screenshots';
const sizes = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
fs.mkdirSync(out, { recursive: true });

type Role = Parameters<Page['getByRole']>[0];

/**
 * `open` clicks the first button with that text; `steps` then click the first element of each role and name (a string
 * matches the whole name);
 * `receipt` asks the header's Find receipt box; `heading` scrolls the last heading of that name to the top, `text` the last
 * text that matches to the bottom.
 */
interface Shot {
  file: string;
  email: string | null;
  path: string;
  open?: string;
  steps?: Array<[Role, string | RegExp]>;
  receipt?: string;
  heading?: string;
  text?: RegExp;
}

const demo = (name: string) => `${name}@padtrack-demo.ph`;
const shots: Shot[] = [
  { file: 'sign-in', email: null, path: '/login' },
  { file: 'transactions', email: demo('admin'), path: '/invoices' },
  { file: 'navigation', email: demo('admin'), path: '/invoices', steps: [['button', /^(Expand|Toggle) navigation$/]] },
  { file: 'transaction-details', email: demo('accounting'), path: '/invoices?invoice=11' },
  {
    file: 'issue-form',
    email: demo('custodian'),
    path: '/invoices?invoice=16',
    steps: [
      ['button', 'Issue'],
      ['checkbox', 'Select all pads'],
    ],
    text: /^\d+ of \d+ selected$/,
  },
  { file: 'transactions-auditor', email: demo('auditor'), path: '/invoices' },
  { file: 'dashboard', email: demo('accounting'), path: '/dashboard' },
  { file: 'dashboard-charts', email: demo('accounting'), path: '/dashboard', heading: 'Numbers in stock per route' },
  { file: 'custodies', email: demo('branchcustodian'), path: '/custodies' },
  { file: 'custody-details', email: demo('branchcustodian'), path: '/custodies?custody=12' },
  { file: 'inventories', email: demo('custodian'), path: '/pads' },
  { file: 'pad-details', email: demo('custodian'), path: '/pads?search=100015', open: 'VIEW' },
  { file: 'pad-history', email: demo('custodian'), path: '/pads?search=100015', open: 'VIEW', heading: 'History' },
  { file: 'find-receipt', email: demo('auditor'), path: '/invoices', receipt: '100015' },
  { file: 'reports', email: demo('accounting'), path: '/reports' },
  { file: 'report-details', email: demo('accounting'), path: '/reports', open: 'VIEW' },
  { file: 'accountability', email: demo('branchhead'), path: '/accountability' },
  { file: 'accountability-consolidated', email: demo('auditor'), path: '/accountability', heading: 'Consolidated RAAF' },
  { file: 'users', email: demo('admin'), path: '/users' },
  {
    file: 'my-qr-code',
    email: demo('driver'),
    path: '/custodies',
    steps: [
      ['button', /^Account menu/],
      ['menuitem', 'My QR Code'],
    ],
  },
  {
    file: 'my-qr-code-full-screen',
    email: demo('driver'),
    path: '/custodies',
    steps: [
      ['button', /^Account menu/],
      ['menuitem', 'My QR Code'],
      ['button', 'Show full screen'],
    ],
  },
];

async function signIn(page: Page, email: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

async function take(page: Page, shot: Shot) {
  await page.goto(`${base}${shot.path}`, { waitUntil: 'networkidle' });
  await page
    .getByTestId('table-loader')
    .first()
    .waitFor({ state: 'hidden', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(800);
  if (shot.open) {
    await page.locator('button', { hasText: shot.open }).first().click();
    await page.waitForTimeout(1200);
  }
  for (const [role, name] of shot.steps ?? []) {
    await page
      .getByRole(role, { name, exact: typeof name === 'string' })
      .first()
      .click();
    await page.waitForTimeout(800);
  }
  if (shot.receipt) {
    await page.getByRole('textbox', { name: 'Find receipt no.' }).fill(shot.receipt);
    await page.getByRole('textbox', { name: 'Find receipt no.' }).press('Enter');
    await page.getByTestId('receipt-finding').first().waitFor();
    await page.waitForTimeout(1200);
  }
  if (shot.heading) {
    await page
      .getByRole('heading', { name: shot.heading, exact: true })
      .last()
      .evaluate((heading) => {
        heading.style.scrollMarginTop = '76px';
        heading.scrollIntoView({ block: 'start' });
      });
    await page.waitForTimeout(400);
  }
  if (shot.text) {
    await page
      .getByText(shot.text)
      .last()
      .evaluate((text) => text.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(400);
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
for (const shot of shots) {
  for (const viewport of sizes) {
    const file = `${out}/${shot.file}-${viewport.width}.png`;
    if (!only.test(file)) continue;
    const page = await browser.newPage({ viewport });
    if (shot.email) await signIn(page, shot.email);
    await take(page, shot);
    await page.screenshot({ path: file });
    await page.close();
    console.log(file);
  }
}
await browser.close();
