import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { apiSession } from './api';

/**
 * The member app at /m (issue 37; docs/members.md) on a phone (390 px), in
 * Hebrew and in English, as a new member uses it: ask for a code, read it in
 * the outbox (through the staff API, as the club's admin reads the outbox),
 * sign in, see the subscription and this week's hours, pay a debt on the
 * sandbox provider's hosted page, download the tax document; axe finds no
 * critical or serious violation on any member screen.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function axe(page: Page, where: string): Promise<string[]> {
  await page.mouse.move(0, 0);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `[${where}] ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The latest sign-in code the club's outbox holds for a phone (as the club's admin reads the outbox). */
async function codeFromOutbox(staff: Awaited<ReturnType<typeof apiSession>>, phone: string): Promise<string> {
  const tail = phone.replace(/\D/g, '').slice(-7);
  let text = '';
  await expect
    .poll(async () => {
      const list = await staff.get<{ text: string; kind: string }[]>(
        `/api/Notification/Outbox?kind=member-code&to=${tail}`,
      );
      text = list[0]?.text ?? '';
      return text;
    })
    .toMatch(/\b\d{6}\b/);
  return /\b(\d{6})\b/.exec(text)![1];
}

/** A member of the demo club with a group of morning hours, a subscription (bought at the desk) and a debt. */
async function makeMember(request: APIRequestContext, tag: string) {
  const staff = await apiSession(request, 'admin', 'demo1234', 1001);
  const group = await staff.post<{ id: number }>('/api/Group', {
    name: `Morning ${tag}`,
    schedule: [{ days: [0, 1, 2, 3, 4, 5, 6], fromTime: 6 * 60, toTime: 9 * 60, entranceState: 2 }],
  });
  const phone = `052${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const client = await staff.post<{ id: number }>('/api/Client', {
    firstName: `Member ${tag}`,
    lastName: 'E2E',
    phone,
    groupId: group.id,
  });
  await staff.post('/api/Client/AdminPurchase', {
    clientId: client.id,
    purchaseItems: [{ itemType: 1, unitPrice: 12000, subscription: { period: 'month' } }],
    payments: [{ method: 0, amount: 12000 }],
    idempotencyKey: `e2e-member-sub-${client.id}`,
  });
  await staff.post('/api/Debts', { clientId: client.id, amount: 3500, description: `Towels ${tag}` });
  return { staff, phone, client, group };
}

test.describe('member app at 390 px', () => {
  for (const lang of ['he', 'en'] as const) {
    test(`${lang}: code sign-in from the outbox, subscription and hours, pay a debt on the hosted page, download the document`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: 390, height: 844 });
      const m = await makeMember(request, lang);
      const problems: string[] = [];

      await page.goto('/m/');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      if (lang === 'en') {
        await page.getByTestId('m-lang').click();
        await expect(page.locator('html')).toHaveAttribute('lang', 'en');
        await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
      }
      problems.push(...(await axe(page, `${lang} contact`)));
      await page.getByTestId('m-contact').fill(m.phone);
      await page.getByTestId('m-send-code').click();
      await expect(page.getByTestId('m-code')).toBeVisible();
      problems.push(...(await axe(page, `${lang} code`)));
      // A wrong code first: refused, announced.
      await page.getByTestId('m-code').fill('000000');
      await page.getByTestId('m-sign-in').click();
      await expect(page.getByRole('alert')).toBeVisible();
      const code = await codeFromOutbox(m.staff, m.phone);
      await page.getByTestId('m-code').fill(code);
      await page.getByTestId('m-sign-in').click();

      // The subscription and the week's real hours.
      await expect(page.getByTestId('m-member-name')).toContainText(`Member ${lang}`);
      await expect(page.getByTestId('m-group')).toHaveText(`Morning ${lang}`);
      await expect(page.getByTestId('m-week').locator('li')).toHaveCount(7);
      await expect(page.getByTestId('m-week').locator('li').first()).toContainText('06:00–09:00');
      problems.push(...(await axe(page, `${lang} subscription`)));
      await page.screenshot({ path: `screenshots/member-subscription-${lang}-390.png`, fullPage: true });

      // The debt, paid on the provider's hosted page.
      await page.getByTestId('m-tab-money').click();
      await expect(page.getByTestId('m-debt')).toHaveCount(1);
      problems.push(...(await axe(page, `${lang} money`)));
      await page.screenshot({ path: `screenshots/member-money-${lang}-390.png`, fullPage: true });
      await page.getByTestId('m-pay-debt').click();
      await expect(page).toHaveURL(/\/sandbox\/hosted\/pay\?r=/);
      await expect(page.getByTestId('hosted-amount')).toHaveText('₪35.00');
      problems.push(...(await axe(page, `${lang} hosted page`)));
      await page.locator('#n').fill('4242 4242 4242 4242');
      await page.locator('#e').fill('12/35');
      await page.locator('#c').fill('123');
      await page.getByTestId('hosted-pay').click();
      await expect(page).toHaveURL(/\/m\/#\/checkout\//);
      await expect(page.getByTestId('m-checkout-status')).toHaveClass(/m-ok/);
      problems.push(...(await axe(page, `${lang} checkout`)));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('m-checkout-document').click(),
      ]);
      expect(
        readFileSync((await download.path())!)
          .subarray(0, 4)
          .toString(),
      ).toBe('%PDF');
      await page.getByTestId('m-checkout-back').click();

      await page.getByTestId('m-tab-money').click();
      await expect(page.getByTestId('m-no-debts')).toBeVisible();
      await page.getByTestId('m-tab-documents').click();
      // The subscription's document and the debt's.
      await expect(page.getByTestId('m-document')).toHaveCount(2);
      problems.push(...(await axe(page, `${lang} documents`)));
      await page.screenshot({ path: `screenshots/member-documents-${lang}-390.png`, fullPage: true });
      const [again] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('m-document').first().getByRole('button').click(),
      ]);
      expect(
        readFileSync((await again.path())!)
          .subarray(0, 4)
          .toString(),
      ).toBe('%PDF');
      await page.getByTestId('m-tab-entrances').click();
      await expect(page.getByTestId('m-entrances')).toBeVisible();
      problems.push(...(await axe(page, `${lang} entrances`)));
      await page.getByTestId('m-tab-profile').click();
      await expect(page.getByTestId('m-profile')).toBeVisible();
      // Her notices by SMS off, saved when the switch changes (and on again for the next language).
      const notices = page.getByTestId('m-notices');
      const sms = notices.getByRole('checkbox', { name: lang === 'he' ? 'הודעות SMS' : 'Notices by SMS' });
      await expect(sms).toBeChecked();
      await sms.uncheck();
      await expect(notices.getByRole('status')).toHaveText(lang === 'he' ? 'נשמר' : 'Saved');
      await expect(sms).not.toBeChecked();
      problems.push(...(await axe(page, `${lang} profile`)));
      await page.screenshot({ path: `screenshots/member-profile-${lang}-390.png`, fullPage: true });
      await sms.check();
      await expect(sms).toBeChecked();
      // The same app on a wide screen: one column in the middle.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('m-tab-subscription').click();
      await expect(page.getByTestId('m-week')).toBeVisible();
      await page.screenshot({ path: `screenshots/member-subscription-${lang}-1280.png` });
      expect(problems).toEqual([]);
    });
  }
});

/**
 * The member app's sign-in route is light (issue 37): at most 100 KB of
 * scripts as the browser receives them (brotli), and none of the console's
 * files (its own build under /m/assets/).
 */
const MEMBER_BUDGET = 100 * 1024;

test('the member sign-in loads at most 100 KB of compressed scripts, none of the console', async ({
  page,
  context,
}) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, string>();
  const urls = new Map<string, string>();
  const scripts: { url: string; bytes: number }[] = [];
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    urls.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (types.get(e.requestId) === 'Script')
      scripts.push({ url: urls.get(e.requestId) ?? '', bytes: e.encodedDataLength });
  });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/m/');
  await expect(page.getByTestId('m-contact')).toBeVisible();
  const total = scripts.reduce((s, x) => s + x.bytes, 0);
  const list = scripts.map((s) => `${s.bytes} ${s.url}`).join('\n');
  expect(scripts.length).toBeGreaterThan(0);
  expect(total, list).toBeLessThanOrEqual(MEMBER_BUDGET);
  for (const s of scripts) expect(new URL(s.url).pathname, list).toMatch(/^\/m\/assets\//);
  // Installable: the manifest is served with the app's scope.
  const manifest = await (await page.request.get('/m/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ start_url: '/m/', scope: '/m/', display: 'standalone' });
  // One thumb at 360 px: nothing wider than the screen, the send button at least 48 px high.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect((await page.getByTestId('m-send-code').boundingBox())!.height).toBeGreaterThanOrEqual(48);
});
