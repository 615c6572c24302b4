import { expect, test, type Page } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { apiSession, resetClubLocation } from './api';
import { confirmTermsIfAsked } from './pages/LoginPage';

/**
 * The calendar screen (issue 14 §3; docs/calendar.md "The calendar screen"):
 * the club set to Antwerp (through the API), the calendar opened from the
 * navigation, the rendering and Israel/diaspora switched, the month printed
 * as the door notice. Screenshots in both languages, desktop and 390 px, go
 * to E2E_SHOTS (when set).
 */
async function signIn(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.addInitScript((l) => {
    if (!localStorage.getItem('venue.lang')) localStorage.setItem('venue.lang', l);
  }, lang);
  await page.goto('/login?userName=admin&password=demo1234&externalClubId=1001');
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
}

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

/** Goes back month by month until the title shows `month` (April 2026: Pesach). */
async function goToMonth(page: Page, title: RegExp) {
  for (let i = 0; i < 36 && !title.test((await page.getByTestId('calendar-title').textContent()) ?? ''); i++) {
    await page.getByRole('button', { name: /Previous month|החודש הקודם/ }).click();
  }
  await expect(page.getByTestId('calendar-title')).toHaveText(title);
}

// The demo club starts at Jerusalem and is put back there, whatever the test did.
test.beforeEach(async ({ request }) => resetClubLocation(request));
test.afterEach(async ({ request }) => resetClubLocation(request));

test('calendar: Antwerp, renderings, Israel and diaspora, the printed month notice', async ({ page }) => {
  const api = await apiSession(page.request, 'admin', 'demo1234', 1001);
  const club = await api.get<{ id: number; name: string }>('/api/Club/GetCurrent');
  await api.patch(`/api/Club/${club.id}`, { location: { city: 'Antwerp' } });
  await signIn(page, 'en');

  await page.getByTestId('nav-calendar').click();
  await expect(page.getByTestId('calendar-place')).toContainText('Antwerp');
  await expect(page.getByTestId('calendar-place')).toContainText('Diaspora');
  await expect(page.getByTestId('zmanim')).toContainText('Nightfall (8.5°)');
  await expect(page.getByTestId('tachanun')).toContainText('Tachanun');

  await goToMonth(page, /April 2026/);
  const grid = page.getByTestId('calendar-grid');
  await expect(grid).toContainText('Pesach VIII'); // diaspora: eight days
  await expect(grid.locator('[data-date="2026-04-03"]')).toContainText('Candle lighting');
  await grid.locator('[data-date="2026-04-03"]').click();
  await expect(page.getByTestId('day-panel')).toContainText('Pesach II');
  await expect(page.locator('[data-zman="candleLighting"]')).toHaveText(/^\d\d:\d\d$/);
  await shot(page, 'calendar-en-desktop');
  // No serious accessibility fault in the calendar's own markup.
  const axe = await new AxeBuilder({ page }).include('[data-testid="calendar-page"]').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target}`))).toEqual([]);

  // Israel: seven days of Pesach; back to the diaspora.
  await page.getByTestId('calendar-il').getByText('Israel').click();
  await expect(page.getByTestId('calendar-place')).toContainText('Israel schedule');
  await expect(grid).toContainText('Pesach VII');
  await expect(grid).not.toContainText('Pesach VIII');
  await page.getByTestId('calendar-il').getByText('Diaspora').click();
  await expect(grid).toContainText('Pesach VIII');

  // Renderings: Hebrew without vowels, with vowels, Ashkenazi.
  await page.getByTestId('calendar-locale').getByText('Hebrew (no vowels)').click();
  await expect(grid).toContainText('פסח ח׳');
  await page.getByTestId('calendar-locale').getByText('Hebrew', { exact: true }).click();
  await expect(grid).toContainText('פֶּסַח ח׳');
  await page.getByTestId('calendar-locale').getByText('Ashkenazi').click();
  await expect(grid).toContainText('Pesach VIII');
  await expect(grid.locator('[data-date="2026-04-03"]')).toContainText('Candle lighting');

  // The options drawer: the choice is remembered after a reload.
  await page.getByTestId('calendar-options-button').click();
  await page.locator('[data-opt="dafYomi"]').uncheck();
  await page.keyboard.press('Escape');
  await expect(grid).not.toContainText('Daf Yomi');
  await page.reload();
  await expect(page.getByTestId('calendar-grid')).not.toContainText('Daf Yomi');
  await goToMonth(page, /April 2026/);

  // The month printed: the notice alone, with the group columns.
  await page.emulateMedia({ media: 'print' });
  const notice = page.getByTestId('print-notice');
  await expect(notice).toBeVisible();
  await expect(page.getByTestId('calendar-grid')).toBeHidden();
  await expect(page.getByTestId('side-nav')).toBeHidden();
  await expect(notice).toContainText(club.name);
  await expect(notice).toContainText('April 2026');
  await expect(notice.locator('thead th')).not.toHaveCount(3); // at least one group's hours beside the times
  await expect(notice.locator('tbody tr')).toHaveCount(30);
  await shot(page, 'calendar-en-print');
  await page.emulateMedia({ media: 'screen' });

  // Phone width, English.
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'calendar-en-phone');

  // Hebrew: right to left, desktop and phone.
  await page.evaluate(() => localStorage.setItem('venue.lang', 'he'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('calendar-place')).toContainText('אנטוורפן');
  await page.getByTestId('calendar-locale').getByText('עברית מנוקדת').click();
  await goToMonth(page, /אפריל 2026/);
  await expect(page.getByTestId('calendar-grid')).toContainText('הַדְלָקַת נֵרוֹת');
  await shot(page, 'calendar-he-desktop');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('print-notice')).toContainText('הדלקת נרות');
  await shot(page, 'calendar-he-print');
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'calendar-he-phone');
});
