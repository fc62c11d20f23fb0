import { expect, type Locator, type Page } from '@playwright/test';

/** The list table of an administration screen (not the tables inside modals). */
export const listTable = (page: Page) => page.getByRole('table').first();
export const bodyRows = (page: Page) => listTable(page).locator('tbody tr');
export const rowWith = (page: Page, text: string) => bodyRows(page).filter({ hasText: text });
export const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });
export const pager = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });

/** docs/spec.md §2 table header, in order. */
export async function expectColumns(page: Page, names: string[]) {
  await expect(listTable(page).locator('thead th')).toHaveText(names);
}

/** Types into the screen's search box and waits for the list call the 300 ms debounce sends. */
export async function search(page: Page, placeholder: string, text: string) {
  const sent = page.waitForResponse((r) => new URL(r.url()).searchParams.get('search') === text.trim() && r.request().method() === 'GET');
  await page.getByPlaceholder(placeholder).fill(text);
  await sent;
}

/** Answers the docs/spec.md §8 confirmation with Yes after checking its words. */
export async function confirm(page: Page, question: string) {
  const box = page.getByRole('dialog', { name: 'Please confirm' });
  await expect(box).toContainText(question);
  await box.getByRole('button', { name: 'Yes' }).click();
  await expect(box).toBeHidden();
}

/** A field's error as Mantine links it to the input (aria-describedby), so it is proved to sit under that field. */
export async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAccessibleDescription(message);
}

/** A Mantine select: open it and pick an option by its label. */
export async function pick(scope: Locator | Page, label: string, option: string) {
  const page = 'page' in scope ? scope.page() : scope;
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A viewport screenshot without the toasts, which would cover the screen. */
export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `.tmp/e2e-shots/${name}.png`, style: '.mantine-Notifications-root { display: none !important; }' });
}

/** The stacked rows a phone shows instead of the table. */
export const phoneCards = (page: Page, title: string) => page.getByRole('list', { name: title }).getByRole('listitem');
