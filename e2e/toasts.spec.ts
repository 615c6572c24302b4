import { expect, test, type Page } from './fixtures';
import { readAllMessages } from './api';

/**
 * The toast service in the browser (seed 001 "Notification toasts";
 * docs/messages.md "Toasts"), with the page's clock under the test's control
 * (Playwright's clock: timers run only when the test advances them, so the
 * checks are exact and take no real time): a toast closes 5 s after it
 * opens; hovering suspends that; leaving closes it 1 s later; several open
 * together, newest on top, each on its own timer. The toast comes from a
 * real action: "Export" on a report with no rows ("No data to export") —
 * the demo club has no license requests (their report is empty).
 */
const CLUB = 1001;
const TEXT = { he: 'אין נתונים לייצוא', en: 'No data to export' } as const;

async function openEmptyReport(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.clock.install();
  await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
  await page.goto(`/login?userName=admin&password=demo1234&externalClubId=${CLUB}`);
  await page.getByTestId('side-nav').waitFor();
  const loaded = page.waitForResponse((r) => r.url().includes('/api/Report/GetAddLicensesRequestReport'));
  await page.goto('/reports/add-licenses-requests-report');
  const res = await loaded;
  expect((await res.json()).total, 'the demo club has no license requests').toBe(0);
  await expect(page.getByTestId('grid-export')).toBeEnabled();
  // Time stands still from here: only page.clock.runFor moves it.
  // 100 ms ahead of the page's clock; a loaded machine can pass that mark before the call lands
  // ("Cannot fast-forward to the past"), so the mark is read again and tried again.
  for (let attempt = 0; ; attempt++) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
      break;
    } catch (err) {
      if (attempt >= 4 || !String(err).includes('fast-forward to the past')) throw err;
    }
  }
}

for (const lang of ['he', 'en'] as const) {
  test(`toasts close after 5 s, pause while hovered, close 1 s after the pointer leaves, stack newest on top (${lang})`, async ({
    page,
    request,
  }) => {
    // No Popup message dialog over the screen (it would take the keyboard's focus).
    await readAllMessages(request, 'admin', 'demo1234', CLUB);
    await openEmptyReport(page, lang);
    const toasts = page.getByTestId('toast');
    const away = { x: lang === 'he' ? 1200 : 80, y: 600 };
    await page.mouse.move(away.x, away.y);
    // The keyboard presses "Export" even while a toast covers the button.
    const show = async () => {
      await page.getByTestId('grid-export').focus();
      await page.keyboard.press('Enter');
    };

    // 5 s (timeout 5000 ms).
    await show();
    await expect(toasts).toHaveCount(1);
    await expect(toasts.first()).toContainText(TEXT[lang]);
    await expect(toasts.first()).toHaveAttribute('role', 'status');
    // At the inline end: the right in English, the left in Hebrew.
    const box = (await toasts.first().boundingBox())!;
    const width = page.viewportSize()!.width;
    if (lang === 'en') expect(width - (box.x + box.width)).toBeLessThan(40);
    else expect(box.x).toBeLessThan(40);
    await page.clock.runFor(4900);
    await expect(toasts).toHaveCount(1);
    await page.clock.runFor(200);
    await expect(toasts).toHaveCount(0);

    // Hovering suspends the timeout; leaving closes it after the extended timeout (1000 ms).
    await show();
    await page.clock.runFor(3000);
    await toasts.first().hover();
    await page.clock.runFor(10_000);
    await expect(toasts).toHaveCount(1);
    await page.mouse.move(away.x, away.y);
    await page.clock.runFor(900);
    await expect(toasts).toHaveCount(1);
    await page.clock.runFor(200);
    await expect(toasts).toHaveCount(0);

    // Three at 0, 1 and 2 s: all open at once (maximum open 0 = unlimited), each on its own timer.
    await show();
    await page.clock.runFor(1000);
    await show();
    await page.clock.runFor(1000);
    await show();
    await expect(toasts).toHaveCount(3);
    await page.clock.runFor(500);
    // Hover the top one: if the newest is on top, the oldest still closes at 5 s.
    await toasts.first().hover();
    await page.clock.runFor(2600); // 5.1 s after the first
    await expect(toasts).toHaveCount(2);
    await page.clock.runFor(1000); // 6.1 s: the second closed, the hovered newest stays
    await expect(toasts).toHaveCount(1);
    await page.clock.runFor(5000);
    await expect(toasts).toHaveCount(1);
    await page.mouse.move(away.x, away.y);
    await page.clock.runFor(1100);
    await expect(toasts).toHaveCount(0);

    // A tap closes one at once.
    await show();
    await expect(toasts).toHaveCount(1);
    await toasts.first().click();
    await expect(toasts).toHaveCount(0);
  });
}
