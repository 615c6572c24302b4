import { expect, test, type Page } from './fixtures';
import AxeBuilder from '@axe-core/playwright';
import { apiSession } from './api';
import { settle, signIn } from './screens';

/**
 * Accessibility of the dialogs and drawers (issue 35 item 3;
 * docs/accessibility.md "Checked by"): the screen scan (a11y.spec.ts) sees
 * only what a screen shows without a click, so here every dialog and drawer
 * is opened — purchase, refund, client form, schedule editor, terminal
 * settings (new terminal), attendance record, the employees list — and axe
 * scans the open dialog alone with the WCAG 2.1 A and AA rules, in Hebrew and
 * English at 1440 and 390 px: no critical or serious violation.
 * Data through the API (a client with a purchase to refund).
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SHOTS = process.env.E2E_SHOTS;

/** A dialog: where it opens, how, and the tab of the page when it is on one. */
interface Dialog {
  name: string;
  route: (ids: Ids) => string;
  open: (page: Page, lang: 'he' | 'en', ids: Ids) => Promise<void>;
}
interface Ids {
  clientId: number;
  purchaseId: number;
}

const tabNames = { purchases: { he: 'רכישות', en: 'Purchases' } } as const;

/**
 * The client page's purchases tab. On a phone the tab bar scrolls sideways by swipe and the tab may
 * be out of view: it is chosen at desktop width, then the page goes back to the phone's.
 */
async function openPurchasesTab(page: Page, lang: 'he' | 'en'): Promise<void> {
  const size = page.viewportSize()!;
  if (size.width < 600) await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('tab', { name: tabNames.purchases[lang], exact: true }).click();
  await page.getByTestId('money-purchases').waitFor();
  if (size.width < 600) await page.setViewportSize(size);
}

/**
 * Clicks a page's button once it is visible. Without waiting for it to be "stable": on a machine
 * under heavy load the animation frames that check comes from arrive too seldom (30 s went by).
 */
async function press(page: Page, testId: string): Promise<void> {
  const button = page.getByTestId(testId);
  await expect(button).toBeVisible();
  await button.click({ force: true });
}

const DIALOGS: readonly Dialog[] = [
  {
    name: 'purchase',
    route: (ids) => `/management/clients/${ids.clientId}`,
    open: async (page, lang) => {
      await openPurchasesTab(page, lang);
      await page.getByTestId('new-purchase').click();
      await page.getByTestId('purchase-item-0').waitFor();
    },
  },
  {
    name: 'refund',
    route: (ids) => `/management/clients/${ids.clientId}`,
    open: async (page, lang, ids) => {
      await openPurchasesTab(page, lang);
      await page.getByTestId(`refund-${ids.purchaseId}`).first().click();
    },
  },
  {
    name: 'client-form',
    route: () => '/management/clients',
    open: async (page) => press(page, 'client-new'),
  },
  {
    name: 'schedule-editor',
    route: () => '/management/app-schedules-list',
    open: async (page) => press(page, 'schedule-new'),
  },
  {
    name: 'terminal-settings',
    route: () => '/management/app-terminals-list',
    open: async (page) => press(page, 'terminal-new'),
  },
  {
    name: 'attendance-record',
    route: () => '/management/attendance',
    open: async (page) => press(page, 'attendance-new'),
  },
  {
    name: 'attendance-employees',
    route: () => '/management/attendance',
    open: async (page) => press(page, 'attendance-employees'),
  },
];

/** Opens a route inside the running app (no reload) and waits for it to settle. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.locator('#main-content').waitFor();
  await settle(page);
}

/** Marks the one open dialog or drawer (antd keeps closed ones in the page) and answers its selector. */
async function markOpenDialog(page: Page): Promise<string> {
  const open = page.locator('.ant-modal-wrap:visible, .ant-drawer-content-wrapper:visible');
  await expect(open).toHaveCount(1);
  await page.evaluate(() =>
    document.querySelectorAll('[data-a11y-dialog]').forEach((e) => e.removeAttribute('data-a11y-dialog')),
  );
  await open.evaluate((e) => e.setAttribute('data-a11y-dialog', ''));
  return '[data-a11y-dialog]';
}

async function scanDialog(page: Page, where: string): Promise<string[]> {
  const selector = await markOpenDialog(page);
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.nodes.map((n) => `${where} ${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 160)}`));
}

async function setLanguage(page: Page, lang: 'he' | 'en'): Promise<void> {
  if ((await page.locator('html').getAttribute('lang')) === lang) return;
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

test.setTimeout(1_200_000);
test.use({ actionTimeout: 30_000 });
test.describe.configure({ mode: 'parallel' });

for (const size of WIDTHS) {
  test(`axe: every dialog and drawer, both languages, at ${size.width} px: no critical or serious violation`, async ({
    page,
    request,
  }) => {
    const api = await apiSession(request, 'admin', 'demo1234', 1001);
    const club = await api.get<{ id: number; isEmployeeAttendanceEnabled: boolean }>('/api/Club/GetCurrent');
    if (!club.isEmployeeAttendanceEnabled)
      await api.patch(`/api/Club/${club.id}`, { isEmployeeAttendanceEnabled: true });
    const client = await api.post<{ id: number }>('/api/Client', {
      firstName: 'נגישה',
      lastName: `דיאלוג ${size.width}`,
    });
    const purchase = await api.post<{ id: number }>('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 4, quantity: 1, unitPrice: 2500 }],
      payments: [{ method: 1, amount: 2500, card: { number: '4242 4242 4242 4242', expiry: '12/35', cvv: '123' } }],
      idempotencyKey: `e2e-a11y-dialogs-${size.width}-${Date.now()}`,
    });
    const ids: Ids = { clientId: client.id, purchaseId: purchase.id };
    const found: string[] = [];
    try {
      await page.addInitScript(() => {
        if (!localStorage.getItem('venue.lang')) localStorage.setItem('venue.lang', 'he');
      });
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, 'admin');
      await page.setViewportSize(size);
      for (const lang of ['he', 'en'] as const) {
        await setLanguage(page, lang);
        for (const d of DIALOGS) {
          await go(page, d.route(ids));
          await d.open(page, lang, ids);
          await page.waitForTimeout(500); // the opening animation
          await settle(page);
          const where = `[${lang} ${size.width}] ${d.name}`;
          const v = await scanDialog(page, where);
          if (v.length) console.log(v.join('\n'));
          found.push(...v);
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/dialog-${d.name}-${lang}-${size.width}.png` });
          await page.keyboard.press('Escape');
          await expect(page.locator('.ant-modal-wrap:visible, .ant-drawer-content-wrapper:visible')).toHaveCount(0);
        }
      }
    } finally {
      if (!club.isEmployeeAttendanceEnabled)
        await api.patch(`/api/Club/${club.id}`, { isEmployeeAttendanceEnabled: false });
    }
    expect(found).toEqual([]);
  });
}
