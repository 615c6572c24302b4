import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { apiSession, resetClubLocation } from './api';
import { confirmTermsIfAsked } from './pages/LoginPage';

/**
 * Issue 34 items 1–3 in the browser: December 2025 (Chanukah 5786) at the
 * demo club (Jerusalem, then Tel Aviv at the club's 18 minutes): every
 * Chanukah night with its candle-lighting time in the grid and the day
 * panel, one time for one Friday in both, and the printed door notice of the
 * month on one A4 page in Hebrew and in English — a real print to PDF
 * (chromium's page.pdf, the print media and `@page` of calendar.css), its
 * pages counted. Screenshots and the PDFs go to E2E_SHOTS (when set).
 */

async function signIn(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
  await page.goto('/login?userName=admin&password=demo1234&externalClubId=1001');
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
}

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

async function goToMonth(page: Page, title: RegExp) {
  for (let i = 0; i < 36 && !title.test((await page.getByTestId('calendar-title').textContent()) ?? ''); i++) {
    await page.getByRole('button', { name: /Previous month|החודש הקודם/ }).click();
  }
  await expect(page.getByTestId('calendar-title')).toHaveText(title);
}

/** Pages of a PDF: its page objects (`/Type /Page`, not `/Pages`). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;

test.beforeEach(async ({ request }) => resetClubLocation(request));
test.afterEach(async ({ request }) => resetClubLocation(request));

for (const lang of ['he', 'en'] as const) {
  test(`calendar in Chanukah (${lang}): every night timed, one Friday time, the December notice on one A4 page`, async ({
    page,
  }) => {
    test.slow();
    const api = await apiSession(page.request, 'admin', 'demo1234', 1001);
    const club = await api.get<{ id: number }>('/api/Club/GetCurrent');
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Tel Aviv', candleLightingMins: 18 } });
    await signIn(page, lang);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('nav-calendar').click();
    await goToMonth(page, lang === 'he' ? /דצמבר 2025/ : /December 2025/);
    const grid = page.getByTestId('calendar-grid');

    // A weekday night of Chanukah (Tuesday 16 Dec: the third candle) has its time in the grid and the panel.
    const tuesday = grid.locator('[data-date="2025-12-16"]');
    await expect(tuesday).toContainText(/\d\d:\d\d/);
    await tuesday.click();
    await expect(page.getByTestId('day-panel')).toContainText(/\d\d:\d\d/);
    // Friday 19 Dec: the grid's candle lighting is the panel's (the club's 18 minutes in Tel Aviv).
    await grid.locator('[data-date="2025-12-19"]').click();
    const panelCandles = (await page.locator('[data-zman="candleLighting"]').textContent())!.trim();
    expect(panelCandles).toMatch(/^\d\d:\d\d$/);
    await expect(grid.locator('[data-date="2025-12-19"]')).toContainText(panelCandles);
    await shot(page, `chanukah-${lang}-1440`);

    // The door notice: a real print to PDF, one A4 page.
    await page.emulateMedia({ media: 'print' });
    const notice = page.getByTestId('print-notice');
    await expect(notice.locator('tbody tr')).toHaveCount(31);
    await expect(notice.locator('tbody tr').nth(15)).toContainText(/\d\d:\d\d/); // 16 Dec: Chanukah's time
    await shot(page, `notice-${lang}-print`);
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    if (process.env.E2E_SHOTS) writeFileSync(`${process.env.E2E_SHOTS}/notice-${lang}.pdf`, pdf);
    expect(pdfPages(pdf)).toBe(1);
    await page.emulateMedia({ media: 'screen' });

    // Phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await grid.locator('[data-date="2025-12-16"]').click();
    await expect(page.getByTestId('day-panel')).toContainText(/\d\d:\d\d/);
    await shot(page, `chanukah-${lang}-390`);
  });
}
