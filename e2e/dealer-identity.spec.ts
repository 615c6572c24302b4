import { expect, test, type Page } from './fixtures';
import { apiSession } from './api';
import { ClientMoneyPage } from './pages/ClientMoneyPage';
import { signInDemoAdmin } from './pages/LoginPage';

/**
 * The dealer's identity on tax documents (docs/money.md): in a club whose
 * dealer number is not set, the purchase dialog says so before payment; a
 * sale is refused with a message that names what to set; the manager gets a
 * link to the club settings, a cashier (money and clients, no settings) is
 * asked to turn to a manager. Screenshots in Hebrew to E2E_SHOTS when set.
 * Data through the API; the demo club's number is put back at the end.
 */
const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.waitForTimeout(400); // the modal's opening animation
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: false });
};

/** Confirms and signs the terms of use of a new user (seed 001 §4). */
async function signTerms(page: Page) {
  await page.getByTestId('terms-confirm').check();
  const box = (await page.getByTestId('signature-pad').boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + 160, box.y + 90, { steps: 8 });
  await page.mouse.up();
  await page.getByTestId('terms-submit').click();
  await expect(page.getByTestId('terms-confirm')).toBeHidden();
}

test("without the club's dealer number: the cashier is told what to set, the manager gets the settings link", async ({
  page,
  browser,
  request,
}) => {
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const club = await api.get<{ id: number; companyNumber: string }>('/api/Club/GetCurrent');
  const client = await api.post<{ id: number }>('/api/Client', { firstName: 'טל', lastName: 'עוסק' });
  const cashier = { username: `cashier${Date.now() % 100000}`, password: 'Cashier1234' };
  await api.post('/api/User', {
    ...cashier,
    name: 'קופאית',
    permissions: { roleViewClientsList: true, roleManageClientMoney: true, roleViewDashboard: true },
  });
  await api.patch(`/api/Club/${club.id}`, { companyNumber: '' });
  try {
    // The manager: told before payment, refused at payment, and led to the settings.
    await signInDemoAdmin(page, 'he');
    const money = new ClientMoneyPage(page);
    await money.open(client.id);
    await money.tab('רכישות');
    await page.getByTestId('new-purchase').click();
    const banner = page.getByTestId('dealer-identity-missing');
    await expect(banner).toContainText('המועדון אינו יכול להפיק חשבוניות מס עדיין');
    await expect(banner).toContainText('מספר עוסק / ח.פ. לא הוגדר');
    await money.chooseItemType(0, 'טעינת כסף');
    await page.getByTestId('item-price-0').fill('50.00');
    await page.getByTestId('purchase-submit').click();
    await expect(banner).toContainText('לא ניתן להפיק חשבונית מס קבלה');
    await expect(banner).toContainText('דבר לא חויב');
    await shot(page, 'dealer-identity-manager-he');
    await page.getByTestId('dealer-settings-link').click();
    await expect(page).toHaveURL(/\/management\/app-settings$/);

    // A cashier: the same message, and a manager to turn to (no link to a screen she cannot use).
    const context = await browser.newContext();
    const desk = await context.newPage();
    await desk.addInitScript(() => localStorage.setItem('venue.lang', 'he'));
    await desk.goto(`/login?userName=${cashier.username}&password=${cashier.password}&externalClubId=1001`);
    await desk.getByTestId('side-nav').waitFor();
    // A new user confirms the terms of use first (the dialog comes after the frame).
    await desk.getByTestId('terms-confirm').waitFor();
    await signTerms(desk);
    const deskMoney = new ClientMoneyPage(desk);
    await deskMoney.open(client.id);
    await deskMoney.tab('רכישות');
    await desk.getByTestId('new-purchase').click();
    const deskBanner = desk.getByTestId('dealer-identity-missing');
    await expect(deskBanner).toContainText('מספר עוסק / ח.פ. לא הוגדר');
    await expect(deskBanner).toContainText('יש לבקש ממנהל להגדיר אותם בהגדרות המועדון');
    await expect(desk.getByTestId('dealer-settings-link')).toHaveCount(0);
    await shot(desk, 'dealer-identity-cashier-he');
    await context.close();
  } finally {
    await api.patch(`/api/Club/${club.id}`, { companyNumber: club.companyNumber });
  }
  // With the number back, the sale goes through.
  await page.goto(`/management/clients/${client.id}`);
  const money = new ClientMoneyPage(page);
  await money.tab('רכישות');
  await page.getByTestId('new-purchase').click();
  await expect(page.getByTestId('dealer-identity-missing')).toHaveCount(0);
});
