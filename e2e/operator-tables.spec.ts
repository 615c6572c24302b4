import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { apiSession } from './api';

/**
 * Every operator table fits the screen (issue 34): at 1440 and 1280 px, in
 * Hebrew and English, no table scrolls sideways and no cell (the row actions
 * above all) ends past the screen's edge. The tables are filled through the
 * API first — a club with a long Hebrew name, a product sold, its pending license request,
 * a failed charge, a global message — so each has a row with its actions.
 * Screenshots of the clubs list at both widths in both languages go to
 * SHOTS_DIR (default screenshots/).
 */
const CLUB = 1001;
const NEW_CLUB = 3000 + Math.floor(Math.random() * 900);
const SHOTS = process.env.SHOTS_DIR ?? 'screenshots';
const LONG_NAME = 'מקווה טהרה נשים עטרת ישראל — שכונת רמת שלמה, ירושלים';

const SCREENS = [
  '/operator/clubs',
  '/operator/license-requests',
  '/operator/club-charges',
  '/operator/terminals',
  '/operator/global-messages',
  '/operator/reports/club-products',
  '/operator/reports/club-licenses',
  '/operator/reports/club-monthly',
  '/operator/reports/low-licenses',
];

/** A club with a long name and a pending bank-transfer request, a failed charge of it, and a message. */
async function fillTables(request: APIRequestContext): Promise<void> {
  const operator = await apiSession(request, 'operator', 'demo1234', CLUB);
  const created = await operator.post<{ club: { id: number }; password: string }>('/api/Operator/Club', {
    externalClubId: NEW_CLUB,
    name: LONG_NAME,
  });
  const admin = await apiSession(request, 'admin', created.password, NEW_CLUB);
  // A product sold today in the demo club (a new club has no dealer identity for its invoice yet).
  const demo = await apiSession(request, 'admin', 'demo1234', CLUB);
  const product = await demo.post<{ id: number }>('/api/Product', { name: 'מגבת רחצה גדולה', price: 1500 });
  const buyer = await demo.post<{ id: number }>('/api/Client', { firstName: 'רחל', lastName: 'טבלאות' });
  await demo.post('/api/Client/AdminPurchase', {
    clientId: buyer.id,
    purchaseItems: [{ itemType: 10, itemId: product.id, name: 'מגבת', quantity: 1, unitPrice: 1500 }],
    payments: [{ method: 0, amount: 1500 }],
    idempotencyKey: `e2e-operator-tables-${NEW_CLUB}`,
  });
  const { price } = await admin.get<{ price: number }>('/api/License/Price');
  await admin.multipart('/api/AddLicensesRequest/HandleAddLicensesRequest', {
    quantity: '40',
    amount: String(40 * price),
    transferDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    fundsCondition: 'true',
    bankCode: '12',
    branch: '123',
    account: '1234567',
    reference: '987654321',
    file: { name: 'ref.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 test') },
  });
  await operator.post(`/api/Operator/Club/${created.club.id}/StartChargeClub`, {
    year: new Date().getFullYear(),
    quantity: 12,
  });
  await operator.post('/api/GlobalMessage', {
    title: 'עדכון גרסה לעמדות הכניסה: התקנה בלילה שבין שני לשלישי, העמדות יופעלו מחדש',
    body: '<p>שלום</p>',
    audience: 'clubs',
    externalClubIds: [NEW_CLUB],
    expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
}

/** How far each table on the page scrolls sideways, and how far any cell ends outside the screen, in px. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')].map(
      (el) => el.scrollWidth - el.clientWidth,
    );
    const cells = [...document.querySelectorAll<HTMLElement>('.ant-table th, .ant-table td')];
    const out = cells.map((c) => {
      const r = c.getBoundingClientRect();
      return Math.max(0, r.right - window.innerWidth, -r.left);
    });
    return {
      tables,
      cells: Math.max(0, ...out),
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

test.beforeAll(async ({ request }) => {
  await fillTables(request);
});

for (const lang of ['he', 'en'] as const) {
  test(`every operator table fits 1440 and 1280 px without sideways scrolling (${lang})`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/login?userName=operator&password=demo1234&externalClubId=${CLUB}`);
    await page.getByTestId('side-nav').waitFor();
    for (const width of [1440, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of SCREENS) {
        await page.goto(path);
        // Rows, not the loading or the empty state: every table has data (fillTables).
        await expect(page.locator('.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
        await page.waitForLoadState('networkidle');
        const o = await overflow(page);
        expect(o.tables.length, `${path} ${width} ${lang}`).toBeGreaterThan(0);
        expect({ path, width, lang, ...o }).toEqual({
          path,
          width,
          lang,
          tables: o.tables.map(() => 0),
          cells: 0,
          page: 0,
        });
        if (path === '/operator/clubs') {
          await expect(page.getByTestId('clubs-table')).toContainText(LONG_NAME);
          await page.screenshot({ path: `${SHOTS}/operator-clubs-${width}-${lang}.png`, fullPage: true });
        }
      }
    }
  });
}
