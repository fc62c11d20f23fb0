import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Person } from './badges.ts';
import { padsHeldBy } from './custodies-support.ts';
import { adminApi, apiAs, createBranch, createUser, headOffice, PHONE, uiLogin, uniq, uniqLetters, watchConsole } from './support.ts';

const SHOTS = 'docs/screenshots';

/** This month in the app's time zone: the month the scene's pads moved in. */
const MONTH = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila', year: 'numeric', month: '2-digit' })
  .format(new Date())
  .slice(0, 7);

let agency: { id: number; name: string };
let head: Person;
let cashier: Person;
let idleHead: Person;

const viewChoice = (page: Page, name: 'One holder' | 'Branch roll-up') => page.getByRole('radio', { name });
const holderRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Holders in the roll-up' }).getByRole('row').filter({ hasText: name });

/** A holder's Beginning, Receipt, Issued and Ending in the roll-up's holder table. */
async function expectTotals(page: Page, name: string, totals: string[]) {
  const cells = holderRow(page, name).getByRole('cell');
  for (const [index, value] of totals.entries()) await expect(cells.nth(1 + index)).toHaveText(value);
}

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
  const admin = await adminApi(request);
  /** The head office first: on a fresh database the first branch becomes it, and it must not be the agency. */
  await headOffice(admin);
  agency = await createBranch(admin, `Roxas Agency ${uniq()}`);
  head = await createUser(admin, { role_id: 5, branch_id: agency.id, first_name: 'Rosa', last_name: 'Reyes' });
  cashier = await createUser(admin, { role_id: 7, branch_id: agency.id, first_name: 'Ana', last_name: 'Cruz' });
  idleHead = await createUser(admin, { role_id: 5, branch_id: agency.id, first_name: 'Lina', last_name: 'Lopez' });
  const courier = await createUser(admin, { role_id: 10, first_name: 'Dan', last_name: `Diaz ${uniqLetters()}` });
  await padsHeldBy(request, admin, head, courier, 2);
  const [pad] = await padsHeldBy(request, admin, cashier, courier, 1);
  const asCashier = await apiAs(request, cashier.email, cashier.password);
  const held = (
    await asCashier.get<{
      data: {
        number: number;
        pad_status_id: number;
        issuance_status_id: number;
        remarks: string | null;
        series: Array<{ number: number }>;
      };
    }>(`get-pad/${pad.id}`)
  ).data;
  await asCashier.put(`update-pad/${pad.id}`, {
    number: held.number,
    pad_status_id: held.pad_status_id,
    issuance_status_id: held.issuance_status_id,
    remarks: held.remarks,
    series: held.series.map((entry, index) => ({ number: entry.number, status: index < 3 ? 2 : 1 })),
  });
  await request.dispose();
});

test('when a branch head who holds nothing opens Accountability, then it opens on the branch roll-up with each holder, and its CSV carries the sums', async ({
  page,
}) => {
  const errors = watchConsole(page);
  await uiLogin(page, idleHead.email, idleHead.password);
  await page.goto(`/accountability?month=${MONTH}`);
  await expect(viewChoice(page, 'Branch roll-up')).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Branch' })).toHaveValue(agency.name);
  await expect(page.getByTestId('raaf-holder')).toHaveText(
    `Branch roll-up: ${agency.name} (branch stock and 2 staff with forms this month)`,
  );
  await expect(page.getByTestId('raaf-balance')).toHaveText('Beginning 0 + Receipt 150 − Issued 3 = Ending 147');
  await expectTotals(page, 'Rosa Reyes', ['0', '100', '0', '100']);
  await expectTotals(page, 'Ana Cruz', ['0', '50', '3', '47']);
  await expect(page.getByRole('button', { name: 'Certify' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/accountability-rollup-1280.png`, fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`raaf-rollup-${MONTH}-branch-${agency.id}.csv`);
  const lines = readFileSync(await file.path())
    .toString()
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    'Company,Route,TIN,Beginning Qty,Beginning From,Beginning To,Receipt Qty,Receipt From,Receipt To,Issued Qty,Issued From,Issued To,Ending Qty,Ending From,Ending To,Remarks',
  );
  expect(lines).toHaveLength(3);
  expect(lines.filter((line) => /,0,,,100,\d+,\d+,0,,,100,\d+,\d+,$/.test(line))).toHaveLength(1);
  expect(lines.filter((line) => /,0,,,50,\d+,\d+,3,\d+,\d+,47,\d+,\d+,$/.test(line))).toHaveLength(1);

  await page.getByRole('button', { name: 'View RAAF of Ana Cruz' }).click();
  await expect(viewChoice(page, 'One holder')).toBeChecked();
  await expect(page.getByTestId('raaf-holder')).toHaveText(`Accountable officer: Ana Cruz, ${agency.name}`);
  await expect(page.getByTestId('raaf-balance')).toHaveText('Beginning 0 + Receipt 50 − Issued 3 = Ending 47');
  expect(errors, errors.join('\n')).toEqual([]);
});

test('when a branch head who holds pads opens Accountability on a phone, then it opens on their own RAAF and the roll-up is one tap away; a cashier has no roll-up', async ({
  browser,
}) => {
  const phone = await browser.newContext({ viewport: PHONE });
  const page = await phone.newPage();
  const errors = watchConsole(page);
  await uiLogin(page, head.email, head.password);
  await page.goto(`/accountability?month=${MONTH}`);
  await expect(viewChoice(page, 'One holder')).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Holder' })).toHaveValue('Rosa Reyes (me)');
  await expect(page.getByTestId('raaf-balance')).toHaveText('Beginning 0 + Receipt 100 − Issued 0 = Ending 100');
  await page.locator('label').filter({ hasText: 'Branch roll-up' }).click();
  await expect(viewChoice(page, 'Branch roll-up')).toBeChecked();
  await expect(page.getByTestId('raaf-holder')).toContainText(`Branch roll-up: ${agency.name}`);
  await expect(page.getByTestId('raaf-balance')).toHaveText('Beginning 0 + Receipt 150 − Issued 3 = Ending 147');
  await page.screenshot({ path: `${SHOTS}/accountability-rollup-390.png`, fullPage: true });
  expect(errors, errors.join('\n')).toEqual([]);
  await phone.close();

  const other = await browser.newContext({ viewport: PHONE });
  const cashierPage = await other.newPage();
  await uiLogin(cashierPage, cashier.email, cashier.password);
  await cashierPage.goto(`/accountability?month=${MONTH}`);
  await expect(cashierPage.getByRole('combobox', { name: 'Holder' })).toHaveValue('Ana Cruz (me)');
  await expect(cashierPage.getByTestId('raaf-balance')).toHaveText('Beginning 0 + Receipt 50 − Issued 3 = Ending 47');
  await expect(viewChoice(cashierPage, 'Branch roll-up')).toHaveCount(0);
  await other.close();
});
