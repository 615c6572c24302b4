import { expect, test, type Page } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { apiSession } from './api';
import { fillParams, navRoutes, settle, signIn } from './screens';
import { EXTRA_ROUTES, type ExtraRoute } from '../apps/web/src/app/screens';

/**
 * Accessibility and phones (issue 19; docs/accessibility.md): every screen
 * of the console — the routes of the side navigation as each user sees them
 * (NAV_ENTRIES through the app's own visibility rule) and the router's other
 * routes (apps/web/src/app/screens.ts `EXTRA_ROUTES`) — scanned by axe-core
 * with the WCAG 2.1 A and AA rules: no critical or serious violation. Each
 * width in one language — Hebrew at 390 px, English at 1440 px — and the
 * sign-in page in both languages at both widths (docs/accessibility.md
 * "Which language at which width" says why the other pairs add nothing;
 * `A11Y_FULL=1` scans every screen in both languages at both widths). At
 * 390 px every list screen must not scroll sideways and must show its rows
 * as cards with their key fields inside the screen. One page per user;
 * screens are opened by URL inside the app (history), the language by the
 * header's switch.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** `A11Y_FULL=1`: both languages at each width (the full matrix, about twice the time). */
const FULL = process.env.A11Y_FULL === '1';
const ALL_WIDTHS = [
  { name: 'desktop', width: 1440, height: 900, langs: FULL ? (['he', 'en'] as const) : (['en'] as const) },
  { name: 'phone', width: 390, height: 844, langs: FULL ? (['en', 'he'] as const) : (['he'] as const) },
] as const;
/** A11Y_WIDTH=390 (or 1440) scans one width only, for a quicker look while fixing; the check runs both. */
const WIDTHS = ALL_WIDTHS.filter((w) => !process.env.A11Y_WIDTH || String(w.width) === process.env.A11Y_WIDTH);
const SHOTS = process.env.E2E_SHOTS;
/** A11Y_ROUTES=<regex> scans only the matching routes, for a quicker look while fixing; the check scans all. */
const ONLY = process.env.A11Y_ROUTES ? new RegExp(process.env.A11Y_ROUTES) : undefined;

type Session = Awaited<ReturnType<typeof apiSession>>;

/**
 * Club settings that only reveal screens (seed 000 §6 navigation rules: attendance, positions and their
 * report; incident reports and their categories; the upsell, safer-payments and quick-exit reports).
 * The scan turns on those that are off, so that the club manager's navigation lists every screen, and
 * puts them back after.
 */
const REVEALING_SETTINGS = [
  'isEmployeeAttendanceEnabled',
  'isIncidentReportEnabled',
  'isUpsellEnabled',
  'isSaferPaymentsEnabled',
  'isQuickExitEnabled',
] as const;

async function revealAllScreens(api: Session): Promise<() => Promise<void>> {
  const club = await api.get<Record<string, unknown> & { id: number }>('/api/Club/GetCurrent');
  const off = REVEALING_SETTINGS.filter((k) => club[k] === false);
  if (!off.length) return async () => undefined;
  await api.patch(`/api/Club/${club.id}`, Object.fromEntries(off.map((k) => [k, true])));
  return async () => {
    await api.patch(`/api/Club/${club.id}`, Object.fromEntries(off.map((k) => [k, false])));
  };
}

/** Opens a route inside the running app (no reload) and waits for it to settle. */
async function open(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settle(page);
}

async function setLanguage(page: Page, lang: 'he' | 'en'): Promise<void> {
  if ((await page.locator('html').getAttribute('lang')) === lang) return;
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await settle(page);
}

/** Critical and serious violations of the page as "rule: target" lines. */
async function scan(page: Page, where: string): Promise<string[]> {
  // Only the violations are wanted: axe then skips the details of what passed (a quicker scan).
  const result = await new AxeBuilder({ page })
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  if (process.env.A11Y_TIMING) console.log(`${where} ${Math.round(performance.now())}`);
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${where} ${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 200)} — ${n.failureSummary?.split('\n')[1] ?? ''}`,
      ),
    );
}

const slug = (path: string) => path.replace(/^\//, '').replace(/[^\w-]+/g, '_') || 'home';

type Width = (typeof ALL_WIDTHS)[number];

async function scanAll(page: Page, routes: string[], found: string[], widths: readonly Width[]): Promise<void> {
  for (const size of widths) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // With A11Y_FULL desktop Hebrew then English, phone English then Hebrew: one switch per width.
    for (const lang of size.langs) {
      await setLanguage(page, lang);
      for (const route of routes.filter((r) => !ONLY || ONLY.test(r))) {
        await open(page, route);
        const v = await scan(page, `[${lang} ${size.width}] ${route}`);
        if (v.length) console.log(v.join('\n'));
        found.push(...v);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${slug(route)}-${lang}-${size.width}.png`, fullPage: true });
      }
    }
  }
}

const report = (found: string[]) => {
  if (found.length) console.log(`${found.length} violations:\n${found.join('\n')}`);
};

test.setTimeout(3_600_000);
// The scans are independent (each test signs in on its own page): spread them over the workers.
test.describe.configure({ mode: 'parallel' });

// One test per width, so that the two widths run side by side in two workers (each with its own server).
for (const size of WIDTHS) {
  test(`axe: every screen of the club manager in ${size.langs.join(' and ')} at ${size.width} px, the sign-in page in both languages: no critical or serious violation`, async ({
    page,
    request,
  }) => {
    const found: string[] = [];
    // The sign-in page, signed out.
    await page.addInitScript(() => {
      if (!localStorage.getItem('venue.lang')) localStorage.setItem('venue.lang', 'he');
    });
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const lang of ['he', 'en'] as const) {
      await page.goto(`/login`);
      await page.evaluate((l) => localStorage.setItem('venue.lang', l), lang);
      await page.reload();
      await page.getByTestId('login-submit').waitFor();
      await settle(page);
      found.push(...(await scan(page, `[${lang} ${size.width}] /login`)));
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => localStorage.setItem('venue.lang', 'he'));
    const api = await apiSession(request, 'admin', 'demo1234', 1001);
    const putBack = await revealAllScreens(api);
    try {
      await signIn(page, 'admin');
      const nav = await navRoutes(page);
      expect(nav).toEqual(expect.arrayContaining(['/management/attendance', '/management/incidents']));
      const extra: string[] = [];
      for (const r of EXTRA_ROUTES.filter((x: ExtraRoute) => !x.public && !x.operator))
        extra.push(await fillParams(r.path, api));
      console.log(`axe: ${nav.length + extra.length} screens of the club manager at ${size.width} px`);
      await scanAll(page, [...nav, ...extra], found, [size]);
    } finally {
      await putBack();
    }
    report(found);
    expect(found).toEqual([]);
  });
}

test('axe: the operator’s own screens, English at 1440 px and Hebrew at 390 px: no critical or serious violation', async ({
  page,
}) => {
  const found: string[] = [];
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    if (!localStorage.getItem('venue.lang')) localStorage.setItem('venue.lang', 'he');
  });
  await signIn(page, 'operator');
  const nav = await navRoutes(page);
  const own = nav.filter((r) => r.startsWith('/operator/'));
  expect(own.length).toBeGreaterThan(0);
  await scanAll(page, [...own, ...EXTRA_ROUTES.filter((x) => x.operator).map((x) => x.path)], found, WIDTHS);
  report(found);
  expect(found).toEqual([]);
});

test('phones: at 390 px no screen scrolls sideways and every list shows its rows as cards with their key fields', async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('venue.lang')) localStorage.setItem('venue.lang', 'he');
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  // Every screen, the attendance and incident screens too (their settings are switched on and back).
  const putBack = await revealAllScreens(api);
  try {
    await signIn(page, 'admin');
    const routes = await navRoutes(page);
    expect(routes).toEqual(expect.arrayContaining(['/management/attendance', '/management/incidents']));
    for (const r of EXTRA_ROUTES.filter((x) => !x.public && !x.operator)) routes.push(await fillParams(r.path, api));
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreens(page, routes);
  } finally {
    await putBack();
  }
});

/** Each route at 390 px: no sideways scroll, and card lists whose first cards show their fields inside the screen. */
async function checkPhoneScreens(page: Page, routes: string[]): Promise<void> {
  const problems: string[] = [];
  let lists = 0;
  for (const route of routes) {
    await open(page, route);
    const m = await page.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      const cards = [...document.querySelectorAll('#main-content [data-card-list] [role="listitem"]')].slice(0, 3);
      const fields = cards.flatMap((c) => [...c.querySelectorAll('[data-card-field] , dt, dd')]);
      const outside = fields
        .map((f) => f.getBoundingClientRect())
        .filter((b) => b.width > 0 && (b.left < -1 || b.right > vw + 1)).length;
      return {
        scroll: document.documentElement.scrollWidth - vw,
        lists: document.querySelectorAll('#main-content [data-card-list]').length,
        cards: cards.length,
        emptyCards: cards.filter((c) => c.querySelectorAll('dd').length === 0).length,
        outside,
      };
    });
    lists += m.lists;
    if (m.scroll > 0) problems.push(`${route}: the page scrolls sideways by ${m.scroll}px`);
    if (m.outside > 0) problems.push(`${route}: ${m.outside} card fields outside the screen`);
    if (m.emptyCards > 0) problems.push(`${route}: ${m.emptyCards} cards without fields`);
  }
  console.log(`phones: ${routes.length} screens, ${lists} card lists`);
  expect(lists).toBeGreaterThan(10);
  expect(problems).toEqual([]);
}
