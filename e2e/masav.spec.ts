import { expect, test, type Page } from './fixtures';
import { apiSession } from './api';
import { signInDemoAdmin as signIn } from './pages/LoginPage';

/**
 * Issue 18 "MASAV round trip", "Accounting export" and "Automatic renewal"
 * screens (/management/app-settings/money): the MASAV institution is set, a
 * test MASAV file is created for a value date and downloaded, the
 * Hashavshevet accounts are saved and MOVEIN.DAT / MOVEIN.PRM downloaded, the
 * renewal settings are saved and renewal is run now. Screenshots of every tab
 * in Hebrew and English at 1440 and 390 px go to E2E_SHOTS when set.
 */
const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

test('MASAV files, MASAV and accounting settings, automatic renewal: set, create, download, run', async ({
  page,
  request,
}) => {
  // A client who owes by MASAV, so the file has a debit and the export a MASAV movement.
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const client = await api.post<{ id: number }>('/api/Client', { firstName: 'דנה', lastName: 'מסב' });
  await api.post('/api/CreditCard', {
    kind: 'masav',
    clientId: client.id,
    bankCode: '12',
    branch: '571',
    account: '041116',
    ownerId: '000000018',
    ownerName: 'Dana LEVI',
  });
  await api.post('/api/Client/AdminPurchase', {
    clientId: client.id,
    purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: 2500 }],
    payments: [{ method: 5, amount: 2500 }],
    idempotencyKey: `e2e-masav-${client.id}`,
  });

  await signIn(page, 'he');
  await page.goto('/management/app-settings');
  await page.getByTestId('settings-money-link').click();
  await expect(page.getByTestId('money-settings-page')).toBeVisible();

  // MASAV institution.
  await page.getByRole('tab', { name: 'פרטי מוסד במס"ב' }).click();
  const masav = page.getByTestId('masav-settings-form');
  await masav.getByLabel('קוד מוסד ונושא').fill('12345678');
  await masav.getByLabel('מוסד שולח').fill('54321');
  await masav.getByLabel('שם המוסד').fill('מקווה הדגמה');
  await masav.getByRole('button', { name: 'שמירה' }).click();
  await expect(page.getByText('נשמר').first()).toBeVisible();

  // A test MASAV file for tomorrow, in the list, downloaded as TEST-….
  await page.getByRole('tab', { name: 'קבצי מס"ב' }).click();
  await page.getByTestId('masav-create').click();
  await expect(page.getByText(/נוצר קובץ מס"ב/)).toBeVisible();
  const row = page.locator('.ant-table-row').first();
  await expect(row).toContainText('ניסיון');
  const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'הורדה' }).click()]);
  expect(file.suggestedFilename()).toMatch(/^TEST-masav-\d{3}-\d{4}-\d{2}-\d{2}\.msv$/);

  // Accounts, then the export of this month.
  await page.getByRole('tab', { name: 'הנהלת חשבונות (חשבשבת)' }).click();
  const acc = page.getByTestId('accounting-form');
  for (const [label, value] of [
    ['חשבון מזומן', '1000'],
    ['חשבון כרטיסי אשראי', '1100'],
    ['חשבון מס"ב (טרם נגבה)', '1300'],
    ['חשבון בנק (מס"ב שנגבה)', '1500'],
    ['חשבון הכנסות', '4000'],
    ['חשבון מע"מ', '2200'],
  ])
    await acc.getByLabel(label, { exact: true }).fill(value);
  await acc.getByRole('button', { name: 'שמירה' }).click();
  await expect(page.getByText('נשמר').first()).toBeVisible();
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await page.getByTestId('movein-export').click();
  await expect.poll(() => downloads.sort().join(',')).toBe('MOVEIN.DAT,MOVEIN.PRM');

  // Automatic renewal: settings and run now.
  await page.getByRole('tab', { name: 'חידוש אוטומטי' }).click();
  const ren = page.getByTestId('renewal-form');
  await ren.getByLabel('ימים לפני תום התוקף').fill('3');
  await ren.getByRole('button', { name: 'שמירה' }).click();
  await expect(page.getByText('נשמר').first()).toBeVisible();
  await page.getByTestId('renew-run').click();
  await expect(page.getByTestId('renew-result')).toContainText('נבדקו');
});

test('money settings screens: Hebrew and English, 1440 and 390 px', async ({ browser }) => {
  test.skip(!process.env.E2E_SHOTS, 'screenshots only');
  test.setTimeout(180_000);
  const first = { he: 'קבצי מס"ב', en: 'MASAV files' };
  for (const lang of ['he', 'en'] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, lang);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [i, tab] of ['files', 'masav', 'accounting', 'renewal'].entries()) {
        await page.goto(`/management/app-settings/money?tab=${tab}`);
        await expect(page.getByTestId('money-settings-page')).toBeVisible();
        if (width === 1440 && i === 0) await expect(page.getByRole('tab', { name: first[lang] })).toBeVisible();
        await shot(page, `money-${lang}-${width}-${i + 1}`);
      }
    }
    await context.close();
  }
});
