import { expect, test, type Locator, type Page } from '@playwright/test';
import { heldPad, type PadRow } from './counter-support.ts';
import { apiAs, PHONE, uiLogin, watchConsole, type Api } from './support.ts';

const SHOTS = 'docs/screenshots';
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const DASH = '\u2013';

const padNow = async (api: Api, id: number) => (await api.get<{ data: PadRow }>(`get-pad/${id}`)).data;
const circle = (scope: Locator, number: number, state?: string) =>
  scope.getByRole('button', { name: state ? `${number}: ${state}` : new RegExp(`^${number}: `) });

async function phonePage(browser: import('@playwright/test').Browser) {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: BASE });
  return context.newPage();
}

/**
 * Where the open dropdown (the listbox) is, sampled on every animation frame for a second, and how often a listbox was
 * added to or taken from the page meanwhile: a stable dropdown has one box all along and no churn.
 */
async function dropdownOverASecond(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ boxes: string[]; churn: number; viewport: { width: number; height: number } }>((resolve) => {
        const boxes = new Set<string>();
        let churn = 0;
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            for (const node of [...record.addedNodes, ...record.removedNodes]) {
              if (node instanceof HTMLElement && (node.getAttribute('role') === 'listbox' || node.querySelector('[role="listbox"]')))
                churn += 1;
            }
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        const started = performance.now();
        const sample = () => {
          const box = document.querySelector('[role="listbox"]')?.getBoundingClientRect();
          boxes.add(box ? [box.left, box.top, box.right, box.bottom].map(Math.round).join(',') : 'none');
          if (performance.now() - started < 1000) requestAnimationFrame(sample);
          else {
            observer.disconnect();
            resolve({ boxes: [...boxes], churn, viewport: { width: window.innerWidth, height: window.innerHeight } });
          }
        };
        requestAnimationFrame(sample);
      }),
  );
}

/** Opens each select of the stacked dialog in turn: each dropdown stays put for a second, inside the screen. */
async function selectsStayPut(page: Page, dialog: Locator, name: string): Promise<string[]> {
  const problems: string[] = [];
  const selects = dialog.locator('input[aria-haspopup="listbox"]');
  const count = await selects.count();
  expect(count, `${name} has a select`).toBeGreaterThan(0);
  for (let i = 0; i < count; i += 1) {
    await selects.nth(i).click();
    await expect(page.getByRole('listbox')).toBeVisible();
    const seen = await dropdownOverASecond(page);
    const [left, top, right, bottom] = seen.boxes[0].split(',').map(Number);
    if (seen.boxes.length !== 1 || seen.churn !== 0) problems.push(`${name} #${i}: moved or flickered ${JSON.stringify(seen)}`);
    if (left < 0 || top < 0 || right > seen.viewport.width || bottom > seen.viewport.height)
      problems.push(`${name} #${i}: outside the screen ${seen.boxes[0]}`);
    await page.screenshot({ path: `${SHOTS}/stacked-select-${name}-390.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toBeHidden();
  }
  return problems;
}

test('when a ticketing officer opens each select of the stacked number modals on a phone, then every dropdown stays put inside the screen', async ({
  browser,
  request,
}) => {
  test.slow();
  const from = 5_000_100_251;
  const { holder, pad } = await heldPad(request, from);
  const page = await phonePage(browser);
  const errors = watchConsole(page);
  await uiLogin(page, holder.email, holder.password);
  await page.goto(`/pads?pad=${pad.id}`);
  const details = page.getByRole('dialog', { name: 'Pad Details' });
  const problems: string[] = [];

  await circle(details, from + 3).tap();
  for (const [button, title, name] of [
    ['Cancel numbers…', `Cancel ${from + 3}`, 'cancel-numbers'],
    ['Report lost…', `Report lost ${from + 3}`, 'report-lost'],
    [`Mark used ${from + 3}`, `Mark used ${from + 3}`, 'skip-reason'],
  ] as const) {
    await details.getByRole('button', { name: button }).tap();
    const stacked = page.getByRole('dialog', { name: title });
    await expect(stacked).toBeVisible();
    problems.push(...(await selectsStayPut(page, stacked, name)));
    await stacked.getByRole('button', { name: 'Cancel', exact: true }).tap();
    await expect(stacked).toBeHidden();
  }
  expect(problems, problems.join('\n')).toEqual([]);

  // The Reason list works by touch: a spoiled receipt is cancelled from the phone.
  await details.getByRole('button', { name: 'Cancel numbers…' }).tap();
  const cancel = page.getByRole('dialog', { name: `Cancel ${from + 3}` });
  await cancel.getByRole('combobox', { name: 'Reason' }).tap();
  await page.getByRole('option', { name: 'Spoiled (torn, stained, misprinted)' }).tap();
  await expect(cancel.getByRole('combobox', { name: 'Reason' })).toHaveValue('Spoiled (torn, stained, misprinted)');
  expect(errors, errors.join('\n')).toEqual([]);
  await page.context().close();
});

test('when a ticketing officer asks to cancel two receipts on a phone, then they read cancellation pending, cannot be used and wait in Needs my action until decided', async ({
  browser,
  request,
}) => {
  test.slow();
  const from = 5_000_200_251;
  const { holder, head, asHolder, pad } = await heldPad(request, from);
  const page = await phonePage(browser);
  const errors = watchConsole(page);
  await uiLogin(page, holder.email, holder.password);
  await page.goto(`/pads?pad=${pad.id}`);
  const details = page.getByRole('dialog', { name: 'Pad Details' });
  await circle(details, from + 4).tap();
  await circle(details, from + 5).tap();
  await details.getByRole('button', { name: 'Cancel numbers…' }).tap();
  const cancel = page.getByRole('dialog', { name: `Cancel ${from + 4}${DASH}${from + 5}` });
  await cancel.getByRole('combobox', { name: 'Reason' }).tap();
  await page.getByRole('option', { name: 'Spoiled (torn, stained, misprinted)' }).tap();
  await cancel.getByRole('radio', { name: 'Yes' }).check();
  await cancel.getByRole('button', { name: 'Cancel numbers' }).tap();
  await expect(page.getByText('Sent for approval')).toBeVisible();

  await expect(circle(details, from + 4, 'Not Used, cancellation pending')).toBeVisible();
  await expect(circle(details, from + 5, 'Not Used, cancellation pending')).toBeVisible();
  await expect(details.getByTestId('history-pending')).toContainText(`Cancellation pending: ${from + 4}${DASH}${from + 5} (2)`);
  await circle(details, from + 4).tap();
  await expect(details.getByTestId('series-shown')).toHaveText(`Receipt no. ${from + 4} · Not Used, cancellation pending`);
  await circle(details, from + 4).tap();
  await circle(details, from).tap();
  await circle(details, from + 9).tap();
  const bar = details.getByTestId('selection-bar');
  await expect(bar.getByTestId('selection-pending')).toContainText(`${from + 4}${DASH}${from + 5} have a cancellation pending`);
  await expect(bar.getByRole('button', { name: /^Mark used/ })).toHaveCount(0);
  await bar.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/cancellation-pending-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await bar.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/cancellation-pending-1280.png` });
  await page.setViewportSize(PHONE);

  // The server refuses it too, and stores nothing.
  const refused = await request.post(`${BASE}/api/pads/${pad.id}/usage`, {
    headers: { authorization: `Bearer ${asHolder.token}` },
    data: { from, to: from + 9 },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).message).toContain(`Number ${from + 4} has a cancellation pending`);
  expect((await padNow(asHolder, pad.id)).next_number).toBe(from);

  await page.goto('/');
  const mine = page.getByRole('region', { name: /^My cancellations waiting for approval/ });
  await expect(mine).toContainText(`${from + 4}${DASH}${from + 5}: cancellation pending`);
  await page.screenshot({ path: `${SHOTS}/my-pending-cancellation-390.png`, fullPage: true });

  const approver = await apiAs(request, head.email, head.password);
  const waiting = await approver.get<{ data: Array<{ id: number; pad: { id: number } }> }>('outcome-requests');
  await approver.post(`outcome-requests/${waiting.data.find((r) => r.pad.id === pad.id)?.id}/approve`);
  await page.reload();
  await expect(page.getByRole('region', { name: /^My cancellations waiting for approval/ })).toHaveCount(0);
  expect(errors, errors.join('\n')).toEqual([]);
  await page.context().close();
});

test('when a counter types a range beside the grid, then it is selected, marked used in one action and the selection line follows the save', async ({
  page,
  request,
}) => {
  const from = 5_000_300_251;
  const { holder, asHolder, pad } = await heldPad(request, from);
  const errors = watchConsole(page);
  await uiLogin(page, holder.email, holder.password);
  await page.goto(`/pads?pad=${pad.id}`);
  const details = page.getByRole('dialog', { name: 'Pad Details' });
  await circle(details, from + 36).click();
  await circle(details, from + 36).click();
  await expect(details.getByTestId('series-shown')).toHaveText(`Receipt no. ${from + 36} · Not Used`);
  const typed = details.getByRole('textbox', { name: 'Type a range' });
  await typed.fill(`${from - 1}-${from + 3}`);
  await typed.press('Enter');
  await expect(details.getByText(`This pad holds ${from}${DASH}${from + 49}`)).toBeVisible();
  await typed.fill(`${from}${DASH}${from + 36}`);
  await typed.press('Enter');
  await expect(details.getByTestId('selection-bar')).toContainText(`Selected ${from}${DASH}${from + 36} (37)`);
  await page.screenshot({ path: `${SHOTS}/typed-range-1280.png` });
  await details.getByRole('button', { name: `Mark used ${from}${DASH}${from + 36}` }).click();
  await expect(page.getByText(`Numbers ${from}${DASH}${from + 36} marked used`)).toBeVisible();
  await expect(details.getByTestId('series-shown')).toHaveText(`Receipt no. ${from + 36} · Used`);
  await expect(typed).toHaveValue('');
  expect((await padNow(asHolder, pad.id)).next_number).toBe(from + 37);
  await page.setViewportSize(PHONE);
  await typed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/typed-range-390.png` });
  expect(errors, errors.join('\n')).toEqual([]);
});
