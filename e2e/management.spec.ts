import { createRequire } from 'node:module';
import { expect, test, type Page } from './fixtures';
import type { Workbook } from 'exceljs';
import { GroupEditor, ImportDialog, UsersScreen } from './pages/ManagementPages';
import { confirmTermsIfAsked } from './pages/LoginPage';

const require = createRequire(import.meta.url);
const ExcelJS = require('exceljs') as { Workbook: new () => Workbook };

/** An .xlsx of clients with English headers; `badId` puts an invalid personal ID on the second data row. */
async function clientsFile(badId: boolean): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Clients');
  ws.addRow(['First name', 'Last name', 'Personal ID', 'Phone']);
  ws.addRow(['Yael', 'Import-One', '', '0501234567']);
  ws.addRow(['Noa', 'Import-Two', badId ? '123456789' : '', '0527654321']);
  ws.addRow(['Dina', 'Import-Three', '', '']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function signIn(page: Page, user: string, password: string): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('venue.lang', 'en'));
  await page.goto(`/login?userName=${user}&password=${encodeURIComponent(password)}&externalClubId=1001`);
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
}

test('management journey: import with a bad row, nightfall schedule and week preview, user without clients', async ({
  page,
  browser,
}) => {
  await signIn(page, 'admin', 'demo1234');

  // 1. Import: the bad row is reported and nothing is written; the fixed file imports.
  const imp = new ImportDialog(page);
  await imp.open();
  await page.getByTestId('import-preview').click();
  await expect(page.getByTestId('import-error')).toContainText('A file must be chosen');
  await imp.choose('clients.xlsx', await clientsFile(true));
  await imp.check();
  await expect(imp.errors()).toContainText('Invalid ID number');
  await expect(imp.errors().locator('tbody tr.ant-table-row').first()).toContainText('3');
  await expect(page.getByTestId('import-commit')).toBeDisabled();
  await imp.choose('clients-fixed.xlsx', await clientsFile(false));
  await imp.check();
  await expect(page.getByTestId('import-ready')).toBeVisible();
  await imp.commit();
  await page.keyboard.press('Escape');
  await page.getByTestId('clients-search').locator('input').fill('Import-Two');
  await expect(page.getByTestId('clients-table')).toContainText('Import-Two');

  // 2. A schedule row ending at nightfall + 30 min, saved with the group; the week preview shows nightfall.
  const editor = new GroupEditor(page);
  await editor.open(1);
  await page.getByTestId('schedule-add').click();
  const rows = page.getByTestId('schedule-table').locator('tbody tr.ant-table-row');
  const last = rows.last();
  await last.locator('.ant-select').nth(1).click(); // "to": fixed → halachic
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Halachic time' }).click();
  await last.locator('.ant-select').nth(2).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Nightfall' }).click();
  await editor.save();
  await editor.open(1);
  await expect(editor.weekPreview()).toBeVisible();
  await expect(editor.weekPreview().getByTestId('nightfall').first()).toContainText(/\d\d:\d\d/);
  await expect(editor.weekPreview()).toContainText('Open');

  // 3. A user without the clients permission: no clients screen, and the API refuses.
  const users = new UsersScreen(page);
  await users.open();
  const name = `desk${Date.now() % 100000}`;
  await users.create(name, 'Pass1234word', ['roleViewDashboard', 'roleViewClientGroupList']);
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  await signIn(other, name, 'Pass1234word');
  await expect(other.getByTestId('nav-clients')).toHaveCount(0);
  await expect(other.getByTestId('nav-groups')).toBeVisible();
  await other.goto('/management/clients');
  await expect(other.getByText('You are not authorized')).toBeVisible();
  await ctx.request.get('/api/health');
  const xsrf = (await ctx.request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const login = await ctx.request.post('/api/Account', {
    data: { username: name, password: 'Pass1234word', externalClubId: 1001 },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  const { token } = (await login.json()) as { token: string };
  const res = await ctx.request.get('/api/Client', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
  await ctx.close();
});
