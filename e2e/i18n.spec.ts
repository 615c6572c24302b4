import { expect, test, type Page } from './fixtures';
import { apiSession } from './api';
import { fillParams, navRoutes, openRoute, settle, signIn } from './screens';
import { EXTRA_ROUTES } from '../apps/web/src/app/screens';
import { inspect, type Finding } from './catalogue-check';

/**
 * Every string through the catalogues (issue 19 "One format"; docs/console-management.md
 * "Every string through the catalogues"): every screen of the console — the side
 * navigation's routes as each user sees them and the router's other routes
 * (apps/web/src/app/screens.ts) — opened in Hebrew must show
 *  - no raw catalogue key (`clients.title`) and no key the catalogues miss
 *    (i18next's missing-key handler, switched on by `venue.i18n-check`: also the calls
 *    with a default, such as a code shown as its number);
 *  - no English word in its visible text, placeholders or tooltips, except the
 *    names and codes of LATIN_ALLOWED (catalogue-check.ts), codes (`<code>`, letters inside a code
 *    with digits such as `#1677FF`) and the club's own data: what the club typed
 *    (names, texts) is shown in elements marked `dir="auto"` or `translate="no"`,
 *    which this check skips for words (not for raw keys);
 *  - the tab title `<screen> — <club>`.
 */

async function hebrewCheck(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem('venue.lang', 'he');
    localStorage.setItem('venue.i18n-check', '1');
  });
  await page.setViewportSize({ width: 1440, height: 900 });
}

const report = (found: Finding[]) => found.map((f) => `${f.route}: ${f.what}`);

test.describe.configure({ mode: 'serial' });
test.setTimeout(600_000);

test('Hebrew: no raw key, missing key or English word on any screen of the club manager; titles "<screen> — <club>"', async ({
  page,
  request,
}) => {
  await hebrewCheck(page);
  // The sign-in page, signed out.
  await page.goto('/login');
  await page.getByTestId('login-submit').waitFor();
  await settle(page);
  expect(await page.title()).toBe('התחברות — מסוף ניהול');
  await signIn(page, 'admin');
  await expect(page.locator('html')).toHaveAttribute('lang', 'he');
  const clubName = (await page.getByTestId('club-name').textContent())!.trim();
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const routes = await navRoutes(page);
  expect(routes.length).toBeGreaterThan(20);
  for (const r of EXTRA_ROUTES.filter((x) => !x.public && !x.operator)) routes.push(await fillParams(r.path, api));
  const found: Finding[] = [];
  for (const route of routes) {
    await openRoute(page, route);
    found.push(...(await inspect(page, route, clubName)));
    if (process.env.E2E_SHOTS)
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/he${route.replace(/\W+/g, '_')}.png`, fullPage: true });
  }
  console.log(`i18n: ${routes.length} screens, ${found.length} findings`);
  // With E2E_SHOTS the same screens in English too, to look at (no check: the catalogue test covers English keys).
  if (process.env.E2E_SHOTS) {
    await page.evaluate(() => localStorage.setItem('venue.lang', 'en'));
    await page.addInitScript(() => localStorage.setItem('venue.lang', 'en'));
    for (const route of routes) {
      await openRoute(page, route);
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/en${route.replace(/\W+/g, '_')}.png`, fullPage: true });
    }
  }
  expect(report(found)).toEqual([]);
});

test('Hebrew: the operator’s own screens show no raw key, missing key or English word', async ({ page }) => {
  await hebrewCheck(page);
  await signIn(page, 'operator');
  const clubName = (await page.getByTestId('club-name').textContent())!.trim();
  const own = (await navRoutes(page)).filter((r) => r.startsWith('/operator/'));
  expect(own.length).toBeGreaterThan(0);
  const routes = [...own, ...EXTRA_ROUTES.filter((x) => x.operator).map((x) => x.path)];
  const found: Finding[] = [];
  for (const route of routes) {
    await openRoute(page, route);
    found.push(...(await inspect(page, route, clubName)));
  }
  expect(report(found)).toEqual([]);
});
