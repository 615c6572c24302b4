import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures';
import { NAV_ENTRIES, REPORT_TEXT } from '@venue/domain';
import { signInDemoAdmin } from './pages/LoginPage';

/**
 * The booking reports (issue 38, docs/appointments.md "Reports") on the demo club, whose rooms,
 * bookings of the last six weeks (the older days folded into counts by retention), tonight's and
 * the coming week's bookings and waitlist come from demo/bookings.ts: each report in Hebrew and
 * English shows figures above zero, the past-retention notice over a period that reaches past the
 * 30 days, and no serious accessibility violation. Screenshots at 1440 and 390 px to
 * E2E_SHOTS (default /tmp/h-apptr-shots).
 */
const SHOTS = process.env.E2E_SHOTS ?? '/tmp/h-apptr-shots';
mkdirSync(SHOTS, { recursive: true });
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const REPORTS = [
  { id: 'bookings', nav: 'bookingsReport', total: 'booked' },
  { id: 'noShows', nav: 'noShowsReport', total: 'noShows' },
  { id: 'roomUse', nav: 'roomUseReport', total: 'bookings' },
  { id: 'waitlist', nav: 'waitlistReport', total: 'joined' },
] as const;

async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

for (const lang of ['he', 'en'] as const) {
  test(`booking reports in ${lang}`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInDemoAdmin(page, lang);
    for (const r of REPORTS) {
      const route = NAV_ENTRIES.find((n) => n.key === r.nav)!.route;
      // The menu entry is there for the admin (roleManageBookings).
      await expect(page.getByTestId('side-nav').locator(`a[href="${route}"]`)).toHaveCount(1);
      await page.goto(route);
      const table = page.getByTestId('report-table');
      await expect(table).toBeVisible();
      // A year: the six weeks of demo bookings, the older ones past retention (counts only), said so.
      await page
        .getByTestId('report-period')
        .getByText(lang === 'he' ? 'שנה' : 'Year', { exact: true })
        .click();
      await expect(page.getByTestId('retention-notice')).toBeVisible();
      const total = page.getByTestId(`report-total-${r.total}`);
      await expect(total).toBeVisible();
      await expect(total).not.toHaveText(/(^|\D)0$/);
      const header = REPORT_TEXT.col.roomKind[lang === 'he' ? 0 : 1];
      await expect(table.getByText(header, { exact: true }).first()).toBeVisible();
      if (r.id !== 'noShows') await expect(table.locator('.ant-table-row').first()).toBeVisible();
      expect(await axe(page), `${r.id} ${lang}`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/${r.id}-${lang}-1440.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(total).toBeVisible();
      expect(await axe(page), `${r.id} ${lang} phone`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/${r.id}-${lang}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });
}
