import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { apiSession } from './api';

/**
 * The member's booking in the member app (issue 38; docs/members.md "Booking") on a phone (390 px),
 * in Hebrew and in English: she signs in with the code from the outbox, opens "Book", picks
 * tomorrow, the immersion room and a free time, sees the fee and books it (paid from her balance),
 * sees it under her bookings, shows the gate's one-time code, and cancels it (the fee refunded);
 * axe finds no critical or serious violation.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function axe(page: Page, where: string): Promise<string[]> {
  await page.mouse.move(0, 0);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `[${where}] ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A member of the demo club in a group open all day, with ₪100 on her balance and a fee room for her group. */
async function makeMember(request: APIRequestContext, tag: string) {
  const staff = await apiSession(request, 'admin', 'demo1234', 1001);
  const group = await staff.post<{ id: number }>('/api/Group', {
    name: `Booking ${tag}`,
    schedule: [{ days: [0, 1, 2, 3, 4, 5, 6], fromTime: 0, toTime: 1439, entranceState: 2 }],
  });
  await staff.post('/api/Booking/Resource', {
    name: `Pool ${tag}`,
    kind: 'pool',
    serviceMinutes: 15,
    bufferMinutes: 5,
    fee: 2500,
    groupIds: [group.id],
  });
  const phone = `053${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const client = await staff.post<{ id: number }>('/api/Client', {
    firstName: `Booker ${tag}`,
    lastName: 'E2E',
    phone,
    groupId: group.id,
  });
  await staff.post('/api/Client/AdminPurchase', {
    clientId: client.id,
    purchaseItems: [{ itemType: 2, unitPrice: 10000 }],
    payments: [{ method: 0, amount: 10000 }],
    idempotencyKey: `e2e-booking-load-${client.id}`,
  });
  return { staff, phone };
}

async function signIn(page: Page, m: Awaited<ReturnType<typeof makeMember>>) {
  await page.getByTestId('m-contact').fill(m.phone);
  await page.getByTestId('m-send-code').click();
  await expect(page.getByTestId('m-code')).toBeVisible();
  const tail = m.phone.replace(/\D/g, '').slice(-7);
  let text = '';
  await expect
    .poll(async () => {
      const list = await m.staff.get<{ text: string }[]>(`/api/Notification/Outbox?kind=member-code&to=${tail}`);
      text = list[0]?.text ?? '';
      return text;
    })
    .toMatch(/\b\d{6}\b/);
  await page.getByTestId('m-code').fill(/\b(\d{6})\b/.exec(text)![1]);
  await page.getByTestId('m-sign-in').click();
  await expect(page.getByTestId('m-member-name')).toBeVisible();
}

test.describe('member booking at 390 px', () => {
  for (const lang of ['he', 'en'] as const) {
    test(`${lang}: books a free time with the fee shown, shows the gate code, cancels with a refund`, async ({
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
        await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
      }
      await signIn(page, m);

      await page.getByTestId('m-tab-booking').click();
      await expect(page.getByTestId('m-booking')).toBeVisible();
      await expect(page.getByTestId('m-no-bookings')).toBeVisible();
      const dateInput = page.getByTestId('m-book-date');
      const today = await dateInput.inputValue();
      const d = new Date(`${today}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + 1);
      await dateInput.fill(d.toISOString().slice(0, 10));
      await page.getByTestId('m-kind-pool').click();
      await expect(page.getByTestId('m-kind-pool')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('m-slot').first()).toBeVisible();
      problems.push(...(await axe(page, `${lang} book`)));
      await page.getByTestId('m-slot').nth(20).click();
      await expect(page.getByTestId('m-confirm-fee')).toContainText('25.00');
      problems.push(...(await axe(page, `${lang} confirm`)));
      await page.screenshot({ path: `screenshots/member-booking-confirm-${lang}-390.png`, fullPage: true });
      await page.getByTestId('m-book').click();
      await expect(page.getByTestId('m-book-note')).toBeVisible();
      await expect(page.getByTestId('m-my-booking')).toHaveCount(1);
      await expect(page.getByTestId('m-booking-status')).toContainText(lang === 'he' ? 'נקבע' : 'Booked');

      await page.getByTestId('m-show-code').click();
      await expect(page.getByTestId('m-gate-code-value')).toHaveText(/^\*\d{6}$/);
      problems.push(...(await axe(page, `${lang} my bookings`)));
      await page.getByTestId('m-my-booking').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `screenshots/member-booking-mine-${lang}-390.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // Cancelled a day ahead: before the cutoff, so the fee comes back.
      await page.getByTestId('m-cancel').click();
      await page.getByTestId('m-cancel-yes').click();
      await expect(page.getByTestId('m-book-note')).toContainText('25.00');
      await expect(page.getByTestId('m-my-booking')).toHaveCount(0);
      await page.getByTestId('m-tab-money').click();
      await expect(page.getByTestId('m-balance')).toContainText('100.00');
      expect(problems).toEqual([]);
    });
  }
});
