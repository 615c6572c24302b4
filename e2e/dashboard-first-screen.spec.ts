import AxeBuilder from '@axe-core/playwright';
import { formatMinor } from '@venue/domain';
import { apiSession } from './api';
import { expect, test, type Page } from './fixtures';

/**
 * The dashboard's first screen (issue 35 dashboard speed;
 * docs/operations.md "Console files"): right after sign-in, while the
 * signed-in frame (antd, menu, live link) still loads, the six counters show
 * with the club's figures, drawn without antd; the full dashboard then takes
 * its place with the same figures in the same places. The frame's antd file
 * is held back here until the test lets it through, so the first screen can
 * be read, scanned by axe and photographed at leisure, in both languages, on
 * a desktop and a phone.
 */
const CLUB = 1001;
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

test('the dashboard first screen shows the counters before antd, then the dashboard takes its place unchanged', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const api = await apiSession(request, 'admin', 'demo1234', CLUB);
  const value = async (name: string) => (await api.post<{ value: number }>(`/api/Dashboard/${name}`, {})).value;
  const income = await value('GetMonthlyIncome');
  const valid = await value('GetValidLicensesCount');
  const club = await api.get<{ name: string }>('/api/Club/GetCurrent');

  for (const lang of ['he', 'en'] as const) {
    for (const width of [1440, 390]) {
      const where = `${lang} ${width}`;
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // The frame's antd file waits until this visit lets it through.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const held = /\/assets\/signed-in-[^/]+\.js$/;
      await page.route(held, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/login');
      await page.evaluate((l) => {
        localStorage.clear();
        localStorage.setItem('venue.lang', l);
      }, lang);
      await page.reload();
      await page.getByTestId('login-username').fill('admin');
      await page.getByTestId('login-password').fill('demo1234');
      await page.getByTestId('login-club').fill(String(CLUB));
      await page.getByTestId('login-submit').click();

      const first = page.getByTestId('dashboard-first-screen');
      await expect(first, where).toBeVisible();
      const locale = lang === 'he' ? 'he-IL' : 'en-US';
      const incomeText = `₪${formatMinor(income, locale)}`;
      const validText = new Intl.NumberFormat(locale).format(valid);
      await expect(first.getByTestId('card-monthly-income').locator('[data-counter]'), where).toHaveText(incomeText);
      await expect(first.getByTestId('card-valid-licenses').locator('[data-counter]'), where).toHaveText(validText);
      await expect(first.getByTestId('card-valid-licenses'), where).toContainText(
        lang === 'he' ? 'רישיונות בתוקף' : 'Valid licenses',
      );
      await expect(first, where).toContainText(club.name);
      await expect(page.locator('html')).toHaveAttribute('dir', lang === 'he' ? 'rtl' : 'ltr');
      // No antd yet: its style engine injects <style data-css-hash> with the first antd component.
      await expect(page.locator('style[data-css-hash], .ant-card, .ant-layout')).toHaveCount(0);
      const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      const serious = result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
      expect(serious.map((v) => `[${where}] ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
      await shot(page, `dashboard-first-screen-${lang}-${width}`);
      const before = await first.getByTestId('card-valid-licenses').boundingBox();

      release();
      await expect(page.getByTestId('side-nav').or(page.getByTestId('nav-toggle')), where).toBeVisible();
      await expect(first, where).toHaveCount(0);
      const card = page.getByTestId('card-valid-licenses');
      await expect(card.locator('[data-counter]'), where).toHaveText(validText);
      await expect(page.getByTestId('card-monthly-income').locator('[data-counter]'), where).toHaveText(incomeText);
      // The same figure in the same place (within a few pixels: antd's card has its own rounding).
      await shot(page, `dashboard-after-first-screen-${lang}-${width}`);
      const after = await card.boundingBox();
      expect(before && after, where).toBeTruthy();
      expect(Math.abs(after!.x - before!.x), `${where} x`).toBeLessThanOrEqual(4);
      expect(Math.abs(after!.width - before!.width), `${where} width`).toBeLessThanOrEqual(4);
      expect(Math.abs(after!.y - before!.y), `${where} y`).toBeLessThanOrEqual(4);
      await page.unroute(held);
      await page.getByTestId('logout').click();
      await expect(page.getByTestId('login-username')).toBeVisible();
    }
  }
});
