import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { menuFor } from '../src/shared/permissions.ts';
import {
  ADMIN,
  animationsSettled,
  apiAs,
  createBranch,
  createRoute,
  createUser,
  headOffice,
  PHONE,
  uiLogin,
  uniq,
  type Api,
} from './support.ts';

/** This month in the app's time zone: the one month the fresh ledger has. */
const THIS_MONTH = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila', year: 'numeric', month: '2-digit' })
  .format(new Date())
  .slice(0, 7);
const WIDTHS = [{ width: 1280, height: 800 }, PHONE];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Buttons on a screen (outside table rows) that open a modal. */
const SCREEN_OPENERS = [/^Add /, /^Request$/, /^Return$/, /^Turnover$/, /^Generate Report$/];
/** Row buttons that open a modal, and the buttons inside a details modal that open another one. */
const ROW_OPENERS = [/^VIEW/, /^EDIT/];
const INNER_OPENERS = [/^Issue$/, /^Hand Over$/, /^Accept$/];

const SURNAMES = ['', '', 'Reyes', 'Cruz', 'Bautista', 'Ocampo', 'Garcia', 'Mendoza', 'Torres', 'Flores', 'Villanueva', 'Ramos'];

interface Person {
  email: string;
  password: string;
}

const people: Record<number, Person> = {};
/** The agency whose Branch Head holds a pad: its branch roll-up lists her. */
let agencyId = 0;

/**
 * Demo-like data made through the API: every role, a pending request, an issued invoice in transit with a
 * courier, and a completed one (pads in a requester's hands), so every list has rows and every modal opens.
 */
test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin: Api = await apiAs(request, ADMIN.email, ADMIN.password);
  const office = await headOffice(admin);
  const agency = await createBranch(admin, `Calapan Terminal ${uniq()}`);
  agencyId = agency.id;
  const route = await createRoute(admin, `Batangas Calapan ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 6 * 50 - 1 });
  people[1] = ADMIN;
  let courierId = 0;
  for (const role of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
    const branch = [4, 5, 6, 7].includes(role) ? agency.id : office.id;
    const user = await createUser(admin, { role_id: role, branch_id: branch, first_name: 'Maria', last_name: SURNAMES[role] });
    people[role] = user;
    if (role === 10) courierId = user.id;
  }
  const requester = await apiAs(request, people[5].email, people[5].password);
  const ask = async () =>
    (await requester.post<{ data: { id: number } }>('create-request-invoice', { branch_id: office.id, route_id: route.id, pads: 1 })).data
      .id;
  const available = (await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: route.id, per_page: 100 })).data;
  const issue = async (invoiceId: number, padId: number) =>
    (
      await admin.post<{ data: { id: number } }>('issue-invoice', {
        invoice_id: invoiceId,
        pads: [padId],
        assigned_user_id: courierId,
        expected_return: 5,
      })
    ).data.id;
  const done = await issue(await ask(), available[0].id);
  await requester.post(`accept-invoice/${done}`);
  await issue(await ask(), available[1].id);
  await ask();
  await request.dispose();
});

/** Every axe violation (of any impact) on the page as it is now, one line each: done means none. */
async function axeFindings(page: Page, where: string, scope?: string): Promise<string[]> {
  /* Modal and menu transitions blend colours while they run. */
  await animationsSettled(page);
  /* options() replaces the whole option object, so the tags are set after it or every rule would run. */
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(TAGS);
  const result = await (scope ? builder.include(scope) : builder).analyze();
  return result.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}

/** Focusable links and buttons of the navigation that are drawn (not hidden) yet lie outside the viewport. */
async function offScreenNavStops(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main navigation' }).evaluateAll((navs) =>
    navs.flatMap((nav) =>
      [...nav.querySelectorAll<HTMLElement>('a[href], button, [tabindex]:not([tabindex="-1"])')]
        .filter((el) => el.checkVisibility({ visibilityProperty: true }) && !el.closest('[inert]'))
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.right <= 0 || box.bottom <= 0 || box.left >= window.innerWidth || box.top >= window.innerHeight;
        })
        .map((el) => el.textContent?.trim() || el.getAttribute('aria-label') || el.tagName),
    ),
  );
}

async function closeDialogs(page: Page) {
  for (let i = 0; i < 4 && (await page.getByRole('dialog').count()) > 0; i += 1) {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(Math.max(0, (await page.getByRole('dialog').count()) - 1));
  }
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/**
 * Modals already checked, by screen, opener and width: the same modal opened by another role is the same markup with
 * other buttons, so each is checked once per run (the first role that can open it), which keeps the sweep to minutes.
 */
const checkedModals = new Set<string>();

/** Opens a modal with `button`, runs axe on it, opens the modals it leads to, and closes them all. */
async function checkModal(page: Page, button: ReturnType<Page['getByRole']>, where: string, findings: string[]) {
  const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
  const key = `${new URL(page.url()).pathname} ${name.replace(/\d+/g, '#').trim()} @${page.viewportSize()?.width}`;
  if (checkedModals.has(key)) return;
  checkedModals.add(key);
  await button.click();
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('table-loader')).toHaveCount(0, { timeout: 15_000 });
  findings.push(...(await axeFindings(page, `${where} modal "${name.trim()}"`, '[role="dialog"]')));
  for (const inner of INNER_OPENERS) {
    const next = dialog.getByRole('button', { name: inner });
    if ((await next.count()) === 0 || !(await next.first().isEnabled())) continue;
    await next.first().click();
    await expect(page.getByRole('dialog')).toHaveCount(2);
    findings.push(...(await axeFindings(page, `${where} modal "${name.trim()}" > ${inner.source}`, '[role="dialog"]')));
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(1);
  }
  await closeDialogs(page);
}

for (const role of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
  test(`when role ${role} opens every screen and modal at 1280 and 390 px, then axe finds no violation`, async ({ page }) => {
    const screens = [...menuFor({ id: 0, role_id: role, branch_id: null }).map((m) => m.path), '/user-profile'];
    /* A budget that follows the work: each screen is checked at two widths with its modals (the Admin has 15 screens). */
    test.setTimeout(60_000 + screens.length * 40_000);
    await uiLogin(page, people[role].email, people[role].password);
    const findings: string[] = [];
    for (const path of screens) {
      await page.goto(path);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        const where = `role ${role} ${path} @${size.width}`;
        const main = page.getByRole('main');
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1, { timeout: 20_000 });
        const h1 = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
        await expect(page).toHaveTitle(`${h1} · PadTrack`);
        await expect(page.getByTestId('table-loader')).toHaveCount(0, { timeout: 15_000 });
        findings.push(...(await axeFindings(page, where)));
        if (size.width < 768)
          findings.push(...(await offScreenNavStops(page)).map((stop) => `${where}: navigation focus stop off screen: ${stop}`));
        for (const opener of SCREEN_OPENERS) {
          const button = main.getByRole('button', { name: opener });
          if ((await button.count()) > 0 && (await button.first().isEnabled())) await checkModal(page, button.first(), where, findings);
        }
        for (const opener of ROW_OPENERS) {
          const button = main.getByRole('button', { name: opener });
          if ((await button.count()) > 0) await checkModal(page, button.first(), where, findings);
        }
      }
      await page.setViewportSize(WIDTHS[0]);
    }
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My QR Code' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await axeFindings(page, `role ${role} My QR Code`)));
    expect(findings, findings.join('\n')).toEqual([]);
  });
}

test('when an admin opens Import, Registered series, Unused forms, Counts, Incidents and a branch roll-up at 1280 and 390 px, then axe finds no violation', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await uiLogin(page, ADMIN.email, ADMIN.password);
  const findings: string[] = [];
  for (const path of [
    '/imports',
    '/registered-series',
    '/unused-forms',
    '/counts',
    '/incidents',
    `/accountability?holder=r:${agencyId}&month=${THIS_MONTH}`,
  ]) {
    await page.goto(path);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      const where = `${path} @${size.width}`;
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1, { timeout: 20_000 });
      await expect(page).toHaveTitle(`${(await page.getByRole('heading', { level: 1 }).innerText()).trim()} · PadTrack`);
      await expect(page.getByTestId('table-loader')).toHaveCount(0, { timeout: 15_000 });
      if (path.startsWith('/accountability')) {
        await expect(page.getByTestId('raaf-holder')).toContainText('Branch roll-up: Calapan Terminal');
        await expect(page.getByRole('table', { name: 'Holders in the roll-up' })).toContainText('Maria Ocampo');
      }
      findings.push(...(await axeFindings(page, where)));
      if (size.width < 768)
        findings.push(...(await offScreenNavStops(page)).map((stop) => `${where}: navigation focus stop off screen: ${stop}`));
      const main = page.getByRole('main');
      for (const opener of [...SCREEN_OPENERS, ...ROW_OPENERS]) {
        const button = main.getByRole('button', { name: opener });
        if ((await button.count()) > 0 && (await button.first().isEnabled())) await checkModal(page, button.first(), where, findings);
      }
    }
    await page.setViewportSize(WIDTHS[0]);
  }
  expect(findings, findings.join('\n')).toEqual([]);
});

test('when the courier loses the network on Custodies at 390 px, then the saved-at lines and the Hand Over modal have no axe violation', async ({
  page,
  context,
}) => {
  await page.setViewportSize(PHONE);
  await uiLogin(page, people[10].email, people[10].password);
  const main = page.getByRole('main');
  const view = main.getByRole('button', { name: /^View .* custody/ }).first();
  await expect(view).toBeVisible({ timeout: 20_000 });
  await view.click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Hand Over' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Hand Over' }).click();
  await expect(page.getByRole('combobox', { name: 'Hand over to' })).toBeVisible();
  await closeDialogs(page);
  await context.setOffline(true);
  const findings: string[] = [];
  await expect(main.getByText(/No connection — showing what was saved at \d\d:\d\d/)).toBeVisible();
  findings.push(...(await axeFindings(page, 'offline /custodies @390')));
  await view.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Hand Over' }).click();
  const modal = page.getByRole('dialog', { name: 'Hand Over Custody' });
  await expect(modal.getByText(/No connection — showing what was saved at \d\d:\d\d/)).toBeVisible();
  findings.push(...(await axeFindings(page, 'offline Hand Over @390', '[role="dialog"]')));
  await context.setOffline(false);
  expect(findings, findings.join('\n')).toEqual([]);
});

test('when a visitor opens the sign-in screens, then each has a title, one h1 and no axe violation', async ({ page }) => {
  const findings: string[] = [];
  for (const path of ['/login', '/register', '/forgot-password']) {
    await page.goto(path);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page).toHaveTitle(`${(await page.getByRole('heading', { level: 1 }).innerText()).trim()} · PadTrack`);
      findings.push(...(await axeFindings(page, `${path} @${size.width}`)));
    }
  }
  expect(findings, findings.join('\n')).toEqual([]);
});
