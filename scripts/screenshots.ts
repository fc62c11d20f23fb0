import { chromium, type Page } from '@playwright/test';
import fs from 'node:fs';
import { DEMO_PASSWORD } from './demo-data.ts';

/** Screenshots of the running demo for the README: `npx tsx scripts/screenshots.ts [base URL] [only these files, a regular expression]`. */
const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const only = new RegExp(process.argv[3] ?? '.');
const out = 'docs/screenshots';
fs.mkdirSync(out, { recursive: true });

/** `open` clicks the first button with that text; `receipt` asks the header's Find receipt box; `heading` scrolls to it. */
const shots: Array<{ file: string; email: string | null; path: string; width: number; open?: string; receipt?: string; heading?: string }> = [
  { file: 'sign-in', email: null, path: '/login', width: 1280 },
  { file: 'transactions', email: 'admin@padtrack-demo.ph', path: '/invoices', width: 1280 },
  { file: 'transaction-details', email: 'admin@padtrack-demo.ph', path: '/invoices', width: 1280, open: 'VIEW' },
  { file: 'inventories', email: 'custodian@padtrack-demo.ph', path: '/pads', width: 1280 },
  { file: 'pad-details', email: 'custodian@padtrack-demo.ph', path: '/pads', width: 1280, open: 'VIEW' },
  { file: 'inventories-phone', email: 'custodian@padtrack-demo.ph', path: '/pads', width: 390 },
  { file: 'custodies-phone', email: 'driver@padtrack-demo.ph', path: '/custodies', width: 390 },
  { file: 'custody-details-phone', email: 'driver@padtrack-demo.ph', path: '/custodies', width: 390, open: 'VIEW' },
  { file: 'reports', email: 'accounting@padtrack-demo.ph', path: '/reports', width: 1280 },
  { file: 'users', email: 'admin@padtrack-demo.ph', path: '/users', width: 1280 },
  { file: 'pad-history', email: 'custodian@padtrack-demo.ph', path: '/pads?search=100015', width: 1280, open: 'VIEW', heading: 'History' },
  { file: 'pad-history-phone', email: 'branchhead@padtrack-demo.ph', path: '/pads?search=100260', width: 390, open: 'VIEW', heading: 'History' },
  { file: 'find-receipt', email: 'auditor@padtrack-demo.ph', path: '/invoices', width: 1280, receipt: '100015' },
  { file: 'find-receipt-phone', email: 'auditor@padtrack-demo.ph', path: '/invoices', width: 390, receipt: '100015' },
  { file: 'accountability', email: 'branchhead@padtrack-demo.ph', path: '/accountability', width: 1280 },
  { file: 'accountability-phone', email: 'branchhead@padtrack-demo.ph', path: '/accountability', width: 390, heading: 'Report of Accountability for Accountable Forms' },
  { file: 'accountability-consolidated', email: 'auditor@padtrack-demo.ph', path: '/accountability', width: 1280, heading: 'Consolidated RAAF' },
];

async function signIn(page: Page, email: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
for (const shot of shots.filter((s) => only.test(s.file))) {
  const page = await browser.newPage({ viewport: { width: shot.width, height: shot.width > 600 ? 800 : 844 } });
  if (shot.email) await signIn(page, shot.email);
  await page.goto(`${base}${shot.path}`);
  await page.getByTestId('table-loader').first().waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(600);
  if (shot.open) {
    await page.locator('button', { hasText: shot.open }).first().click();
    await page.waitForTimeout(1200);
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
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(400);
  }
  await page.screenshot({ path: `${out}/${shot.file}.png` });
  await page.close();
  console.log(`${out}/${shot.file}.png`);
}
await browser.close();
