import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

/**
 * The operator's console (docs/operator.md): the operator sees its own
 * navigation section and a banner naming the club it acts on, creates a club
 * with its first admin (the password shown once), and that admin signs in.
 * Screenshots in both languages and at phone width go to screenshots/.
 */
const CLUB = 1001;
const PASSWORD = 'demo1234';
const NEW_CLUB = 1000 + Math.floor(Math.random() * 900) + 2000;

async function signIn(page: Page, user: string, password: string, club: number, lang: 'he' | 'en'): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
  await page.goto(`/login?userName=${user}&password=${encodeURIComponent(password)}&externalClubId=${club}`);
  await page.getByTestId('side-nav').or(page.getByTestId('nav-toggle')).first().waitFor();
  const terms = page.getByTestId('terms-modal');
  if (await terms.isVisible().catch(() => false)) {
    await page.getByTestId('terms-confirm').check();
    const box = (await page.getByTestId('signature-pad').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 30);
    await page.mouse.down();
    await page.mouse.move(box.x + 160, box.y + 90, { steps: 8 });
    await page.mouse.up();
    await page.getByTestId('terms-submit').click();
    await expect(terms).toBeHidden();
  }
}

/** The new club's admin files a bank-transfer request for `quantity` licenses through the API (multipart, as the console's form). */
async function requestLicenses(request: APIRequestContext, password: string, quantity: number): Promise<void> {
  await request.get('/api/health');
  const xsrf = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const login = await request.post('/api/Account', {
    data: { username: 'admin', password, externalClubId: NEW_CLUB },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  const headers = { Authorization: `Bearer ${(await login.json()).token}`, 'X-XSRF-TOKEN': xsrf };
  const { price } = await (await request.get('/api/License/Price', { headers })).json();
  const res = await request.post('/api/AddLicensesRequest/HandleAddLicensesRequest', {
    headers,
    multipart: {
      quantity: String(quantity),
      amount: String(quantity * price),
      transferDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      fundsCondition: 'true',
      bankCode: '12',
      branch: '123',
      account: '1234567',
      reference: '987654',
      file: { name: 'ref.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 test') },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('the operator creates a club, its admin signs in, asks for 40 licenses, the operator approves', async ({
  page,
  browser,
}) => {
  await signIn(page, 'operator', PASSWORD, CLUB, 'en');
  await expect(page.getByTestId('operator-banner')).toContainText(`club ${CLUB}`);
  await page.getByTestId('nav-operatorClubs').click();
  await expect(page.getByTestId('clubs-table')).toContainText(String(CLUB));
  await page.getByTestId('club-new').click();
  await page.getByTestId('club-external-id').fill(String(NEW_CLUB));
  await page.getByTestId('club-name-input').fill('Beit El');
  await page.getByTestId('club-create-save').click();
  const password = (await page.getByTestId('club-admin-password').innerText()).trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
  await page.screenshot({ path: 'screenshots/operator-club-created-en.png', fullPage: true });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('clubs-table')).toContainText('Beit El');
  await page.screenshot({ path: 'screenshots/operator-clubs-en.png', fullPage: true });
  // Its admin asks for 40 licenses by bank transfer; the operator approves them in the queue.
  await requestLicenses(page.request, password, 40);
  await page.getByTestId('nav-operatorLicenses').click();
  const row = page.getByRole('row', { name: new RegExp(`${NEW_CLUB} · Beit El`) });
  await expect(row).toBeVisible();
  await page.screenshot({ path: 'screenshots/operator-license-queue-en.png', fullPage: true });
  await row.getByRole('button', { name: 'Approve and load' }).click();
  await expect(page.getByTestId('toasts')).toContainText('Approved and loaded');
  await page.getByTestId('nav-operatorClubs').click();
  // Columns: number, name, class, country, licenses left.
  await expect(
    page
      .getByRole('row', { name: /Beit El/ })
      .getByRole('cell')
      .nth(4),
  ).toHaveText('40');
  // Five more by hand, with a reason.
  await page.getByTestId(`club-load-${NEW_CLUB}`).click();
  await page.getByRole('dialog').getByRole('spinbutton').fill('5');
  await page.getByRole('dialog').getByRole('textbox').fill('Opening gift');
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await expect(
    page
      .getByRole('row', { name: /Beit El/ })
      .getByRole('cell')
      .nth(4),
  ).toHaveText('45');

  const admin = await browser.newPage();
  await signIn(admin, 'admin', password, NEW_CLUB, 'en');
  await expect(admin.getByTestId('club-name')).toContainText('Beit El');
  await expect(admin.getByTestId('nav-operatorClubs')).toHaveCount(0);
  await expect(admin.getByTestId('operator-banner')).toHaveCount(0);
  // 40 licenses: no low-license toast (seed 000 §8: below 11).
  await expect(admin.getByTestId('low-license-buy')).toHaveCount(0);
  await admin.close();
});

test('the operator’s clubs in Hebrew and at phone width', async ({ browser }) => {
  const he = await browser.newPage();
  await signIn(he, 'operator', PASSWORD, CLUB, 'he');
  await he.goto('/operator/clubs');
  await expect(he.getByTestId('clubs-table')).toContainText(String(CLUB));
  await he.screenshot({ path: 'screenshots/operator-clubs-he.png', fullPage: true });
  await he.close();
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signIn(phone, 'operator', PASSWORD, CLUB, 'he');
  await phone.goto('/operator/clubs');
  await expect(phone.getByTestId('clubs-table')).toContainText(String(CLUB));
  await phone.screenshot({ path: 'screenshots/operator-clubs-phone.png', fullPage: true });
  await phone.close();
});
