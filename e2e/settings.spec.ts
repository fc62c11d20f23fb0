import { expect, test } from '@playwright/test';
import { demoLogoPng } from '../src/server/demo/operator.ts';
import { IDENTITY_MSG } from '../src/shared/schemas/operator-identity.ts';
import { expectFieldError } from './admin-support.ts';
import { ADMIN, PHONE, adminApi, apiAs, createUser, uiLogin } from './support.ts';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert(1)</script><circle cx="20" cy="20" r="18" fill="#1f3a5f"/></svg>';

test('when the Admin sets the operator identity on Settings, then it is saved with its signatories and logo, and other roles have no Settings', async ({
  page,
  browser,
  request,
}) => {
  const admin = await adminApi(request);
  const itAdmin = await createUser(admin, { role_id: 2 });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  const name = page.getByLabel('Registered name');
  await name.fill('');
  await page.getByLabel('TIN').fill('12-34');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectFieldError(name, 'Registered name is required');
  await expectFieldError(page.getByLabel('TIN'), IDENTITY_MSG.tin);

  await name.fill('Ocean Fast Ferries Inc.');
  await page.getByLabel('Trade name').fill('OceanJet');
  await page.getByLabel('TIN').fill('004-512-889');
  await page.getByLabel('Branch code').fill('000');
  await page.getByLabel('Address').fill('Pier 8, North Harbor, Tondo, Manila 1012');
  await page.getByLabel('RAAF: name').fill('Teresita M. Villanueva');
  await page.getByLabel('RAAF: position').fill('Chief Accountant');
  await page.getByLabel('Notice of Loss: name').fill('Ramon L. Aquino');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectFieldError(page.getByLabel('Notice of Loss: position'), IDENTITY_MSG.signatoryPair);
  await page.getByLabel('Notice of Loss: position').fill('Operations Manager');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(IDENTITY_MSG.saved)).toBeVisible();

  const upload = page.locator('input[type="file"]');
  await upload.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a logo') });
  await expect(page.getByRole('alert').filter({ hasText: IDENTITY_MSG.logoType })).toBeVisible();
  await upload.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG) });
  await expect(page.getByRole('img', { name: 'Operator logo' })).toHaveAttribute('src', /^data:image\/png;base64,/);
  await upload.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: demoLogoPng() });
  await expect(page.getByRole('img', { name: 'Operator logo' })).toHaveAttribute(
    'src',
    `data:image/png;base64,${demoLogoPng().toString('base64')}`,
  );

  const stored = await admin.get<{ data: { registered_name: string; tin: string; signatories: Record<string, { name: string }> } }>(
    'settings/operator-identity',
  );
  expect(stored.data).toMatchObject({
    registered_name: 'Ocean Fast Ferries Inc.',
    tin: '004-512-889',
    signatories: { raaf: { name: 'Teresita M. Villanueva' }, notice_of_loss: { name: 'Ramon L. Aquino' } },
  });

  await page.reload();
  await expect(page.getByLabel('Registered name')).toHaveValue('Ocean Fast Ferries Inc.');
  await page.screenshot({
    path: 'docs/screenshots/settings-1280.png',
    style: '.mantine-Notifications-root { display: none !important; }',
  });
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('img', { name: 'Operator logo' })).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/settings-390.png', style: '.mantine-Notifications-root { display: none !important; }' });

  const other = await browser.newPage();
  await uiLogin(other, itAdmin.email, itAdmin.password);
  await expect(other.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Settings', exact: true })).toHaveCount(0);
  const itApi = await apiAs(request, itAdmin.email, itAdmin.password);
  const refused = await request.get('/api/settings/operator-identity', { headers: { authorization: `Bearer ${itApi.token}` } });
  expect(refused.status()).toBe(403);
  await other.close();
});
