import { expect, test, type Page } from './fixtures';
import type { FrontDeskGate, FrontDeskGlance } from '@venue/domain';
import { apiSession, readAllMessages } from './api';
import { inspect } from './catalogue-check';
import { FrontDeskPage } from './pages/FrontDeskPage';
import { signInDemoAdmin } from './pages/LoginPage';

/**
 * The front desk (issue 35; docs/front-desk.md) at tablet width, in Hebrew and in English:
 *  (a) a member swipes their card (a keyboard-wedge reader types the number and Enter) → the
 *      member at a glance, the group open now → F2 checks them in through the desk's gate, and
 *      the entrance is recorded (the screen says so; the API's glance has it as the last entrance);
 *  (b) a walk-in found by card is sold an entrance at the schedule's price and admitted within
 *      the interaction budget (at most 3 after the search: F4, Enter to pay, Esc); the count is
 *      printed;
 *  (c) a walk-in found by phone → sell an entrance (the suggested price) → the receipt → print on
 *      an 80 mm roll and on A4 (the print view shows the slip alone at the paper's width);
 *  (d) a member whose group is closed now: no entrance is offered, and any other sale warns first;
 *  (e) the same member admitted anyway (F2, a reason): recorded as reason 29 EntryByStaffOverride.
 * The Hebrew run checks the desk's states for English words and missing keys (catalogue-check.ts);
 * with E2E_SHOTS, screenshots at tablet and phone width with a member open.
 * Data through the API.
 */
const CLUB = 1001;
const TABLET = { width: 1024, height: 768 };
const PORTRAIT = { width: 820, height: 1180 };
const PHONE = { width: 390, height: 844 };

const LABELS = {
  he: {
    closed: 'סגור עכשיו',
    open: 'פתוח עכשיו',
    sell: 'מכירת כניסה',
    price: '₪35.00',
    row: 'כניסה יומית',
    reason: 'אישור הרב לטבילה',
    overridden: 'שמך והסיבה נרשמו',
  },
  en: {
    closed: 'Closed now',
    open: 'Open now',
    sell: 'Sell an entrance',
    price: '₪35.00',
    row: 'Day entrance',
    reason: 'Approved by the rav',
    overridden: 'your name and reason are recorded',
  },
} as const;

const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.waitForTimeout(400); // antd's animations
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

/** The clients of one run: a member, two walk-ins (by card, by phone) and one whose group is closed now. */
async function deskData(request: Parameters<typeof apiSession>[0], lang: 'he' | 'en') {
  const api = await apiSession(request, 'admin', 'demo1234', CLUB);
  const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
  const open = await api.post<{ id: number }>('/api/Group', {
    // Hebrew in both runs: a club's groups are named in Hebrew, and the Hebrew screens' check (e2e/i18n.spec.ts)
    // on the same server reads every group's name.
    name: `דלפק פתוח ${stamp}`,
    entranceState: 2,
    schedule: [
      {
        days: [0, 1, 2, 3, 4, 5, 6, 7],
        fromTime: 0,
        toTime: 1440,
        entranceState: 2,
        price: 3500,
        displayName: LABELS[lang].row,
      },
    ],
  });
  const closed = await api.post<{ id: number }>('/api/Group', {
    name: `דלפק סגור ${stamp}`,
    entranceState: 1,
  });
  const licensed = { licenseExpiry: '2030-12-31' };
  const names =
    lang === 'he'
      ? {
          member: ['אלישבע-רחל', `בן-שמעון וייסנברג-אלמוגי ${stamp}`],
          card: ['מרים', `הלוי ${stamp}`],
          phone: ['שושנה', `טלפון ${stamp}`],
          closed: ['רבקה', `סגורה ${stamp}`],
        }
      : {
          member: ['Elisheva-Rachel', `Ben-Shimon Weissenberg-Almogi ${stamp}`],
          card: ['Miriam', `Halevi ${stamp}`],
          phone: ['Shoshana', `Phone ${stamp}`],
          closed: ['Rivka', `Closed ${stamp}`],
        };
  const client = (n: string[], extra: object) =>
    api.post<{ id: number }>('/api/Client', { firstName: n[0], lastName: n[1], ...licensed, ...extra });
  const cards = { member: `71${stamp}1`, walkIn: `71${stamp}2`, closed: `71${stamp}3` };
  const phone = `058${stamp}${lang === 'he' ? '1' : '2'}`; // 10 digits, 058-xxx-xxxx
  const member = await client(names.member, {
    groupId: open.id,
    cardSerial: cards.member,
    subscriptionEnd: '2030-12-31',
    messageToClient: lang === 'he' ? 'נא לחדש את תמונת הכרטיס' : 'Please renew the card photo',
  });
  const walkIn = await client(names.card, { groupId: open.id, cardSerial: cards.walkIn });
  const byPhone = await client(names.phone, { groupId: open.id, phone: `+972${phone.slice(1)}` });
  const shut = await client(names.closed, {
    groupId: closed.id,
    cardSerial: cards.closed,
    subscriptionEnd: '2030-12-31',
  });
  const gates = await api.get<FrontDeskGate[]>('/api/FrontDesk/Gates');
  const gate = gates.find((g) => g.approved);
  if (!gate) throw new Error('the demo club has no approved gate');
  const glance = (id: number) => api.get<FrontDeskGlance>(`/api/FrontDesk/Client/${id}?terminalId=${gate.id}`);
  return { api, names, cards, phone, member, walkIn, byPhone, shut, gate, glance };
}

/** The last entrance the API knows for the client is at `gate`, in the last two minutes. */
async function expectEnteredNow(glance: () => Promise<FrontDeskGlance>, gate: string) {
  const g = await glance();
  expect(g.lastEntrance, 'an entrance is recorded').not.toBeNull();
  expect(g.lastEntrance!.terminalName).toBe(gate);
  expect(Date.now() - Date.parse(g.lastEntrance!.at)).toBeLessThan(120_000);
}

/**
 * The receipt's print button `format` asks the browser to print the slip alone: the page rule of
 * the paper, the body marked, and under print media the slip the only thing shown, at the paper's
 * printable width (72 mm of an 80 mm roll; 180 mm of A4 less its margins).
 */
async function expectPrint(page: Page, desk: FrontDeskPage, format: '80' | 'a4') {
  await page.evaluate(() => {
    const w = window as unknown as { printCalls: number };
    w.printCalls = 0;
    window.print = () => {
      w.printCalls += 1;
    };
  });
  await desk.click(page.getByTestId(`receipt-print-${format}`));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls), { timeout: 30_000 })
    .toBe(1);
  const rule = await page.evaluate(() => document.querySelector('style[data-print-page="receipt"]')?.textContent);
  expect(rule).toMatch(format === '80' ? /size: 80mm \d+mm/ : /size: A4 portrait/);
  await expect(page.locator('body')).toHaveAttribute('data-print-receipt', format === '80' ? 'thermal80' : 'a4');
  await page.emulateMedia({ media: 'print' });
  const sheet = page.getByTestId('receipt-sheet');
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('front-desk')).toBeHidden();
  await expect(page.getByTestId('receipt-sheet-total')).toContainText('35.00');
  const width = (await sheet.boundingBox())!.width;
  const mm = width / (96 / 25.4);
  expect(Math.round(mm)).toBe(format === '80' ? 72 : 180);
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await expect(page.locator('body')).not.toHaveAttribute('data-print-receipt');
}

for (const lang of ['he', 'en'] as const) {
  test(`front desk at tablet width (${lang}): card → check in; walk-in card → sold and admitted in ≤3; phone → sell → receipt → print; closed group warns, then override`, async ({
    page,
    request,
  }) => {
    const d = await deskData(request, lang);
    const L = LABELS[lang];
    await readAllMessages(request, 'admin', 'demo1234', CLUB);
    if (lang === 'he') await page.addInitScript(() => localStorage.setItem('venue.i18n-check', '1'));
    await page.setViewportSize(TABLET);
    await signInDemoAdmin(page, lang);
    const desk = new FrontDeskPage(page);
    await desk.open();
    const clubName = (await page.getByTestId('club-name').textContent())!.trim();
    const hebrewClean = async (state: string) => {
      if (lang !== 'he') return;
      expect((await inspect(page, `/front-desk (${state})`, clubName)).map((f) => `${f.route}: ${f.what}`)).toEqual([]);
    };
    await hebrewClean('hint');

    // (a) The member's card: at a glance, the group open now, checked in with one key.
    await desk.swipe(d.cards.member);
    await desk.member(d.names.member[1]);
    await expect(page.getByTestId('desk-open-now')).toHaveAttribute('data-open', 'true');
    await expect(page.getByTestId('desk-open-now')).toContainText(L.open);
    await expect(desk.verdict).toHaveAttribute('data-verdict', 'admits');
    await expect(page.getByTestId('desk-message')).toBeVisible();
    await hebrewClean('member');
    await shot(page, `front-desk-${lang}-tablet-member`);
    await page.setViewportSize(PORTRAIT);
    await shot(page, `front-desk-${lang}-820-member`);
    await page.setViewportSize(PHONE);
    await shot(page, `front-desk-${lang}-390-member`);
    await page.setViewportSize(TABLET);
    await desk.press('F2');
    await expect(desk.result).toHaveAttribute('data-admitted', 'true');
    await expect(desk.result).toContainText(d.gate.name);
    const checkInCount = desk.interactions;
    await expectEnteredNow(() => d.glance(d.member.id), d.gate.name);
    await expect(desk.box).toBeFocused();
    await hebrewClean('checked in');

    // (b) A walk-in by card: sold an entrance at the schedule's price and admitted within the budget.
    await desk.swipe(d.cards.walkIn);
    await desk.member(d.names.card[1]);
    await expect(desk.verdict).toHaveAttribute('data-verdict', 'pay');
    await expect(page.getByTestId('desk-sell')).toContainText(L.price);
    // Not admitted without paying: the sale is the primary action (an admin may still override).
    await expect(page.getByTestId('desk-sell')).toHaveClass(/ant-btn-primary/);
    await expect(page.getByTestId('desk-checkIn')).toHaveCount(0);
    await desk.press('F4');
    const pay = page.getByTestId('purchase-submit');
    await expect(pay).toBeEnabled();
    await expect(page.getByTestId('item-price-0')).toHaveValue(/35/);
    await expect(page.getByTestId('price-source-0')).toContainText(L.row);
    await expect(pay).toBeFocused();
    await hebrewClean('sell dialog');
    await shot(page, `front-desk-${lang}-tablet-sell`);
    await desk.press('Enter');
    await expect(page.getByTestId('receipt-note')).toBeVisible();
    await expect(page.getByTestId('receipt-total')).toContainText('35.00');
    const admittedAfter = desk.interactions;
    await desk.press('Escape');
    await expect(desk.result).toBeVisible();
    await expect(desk.box).toBeFocused();
    const walkInCount = desk.interactions;
    await expectEnteredNow(() => d.glance(d.walkIn.id), d.gate.name);
    console.log(
      `front desk (${lang}) interactions after the search: check in ${checkInCount}; walk-in by card sold and admitted ${admittedAfter}, the box ready for the next swipe ${walkInCount}`,
    );
    expect(checkInCount).toBeLessThanOrEqual(1);
    expect(walkInCount).toBeLessThanOrEqual(3);

    // (c) A walk-in by phone (as the cashier types it): sell, the receipt, print on 80 mm and A4.
    await desk.swipe(`${d.phone.slice(0, 3)}-${d.phone.slice(3, 6)}-${d.phone.slice(6)}`);
    await desk.member(d.names.phone[1]);
    await desk.click(page.getByTestId('desk-sell'));
    await expect(page.getByRole('dialog')).toContainText(L.sell);
    await expect(page.getByTestId('item-price-0')).toHaveValue(/35/);
    await desk.click(page.getByTestId('purchase-submit'));
    await expect(page.getByTestId('purchase-receipt')).toBeVisible();
    await expect(page.getByTestId('receipt-sheet-customer')).toContainText(d.names.phone[1], { useInnerText: false });
    await hebrewClean('receipt');
    await shot(page, `front-desk-${lang}-tablet-receipt`);
    await expectPrint(page, desk, '80');
    await expectPrint(page, desk, 'a4');
    await expect(page.getByTestId('receipt-email')).toBeVisible(); // to the club's invoice e-mail (invoice-mail.spec.ts)
    await desk.click(page.getByTestId('receipt-close'));
    await expect(desk.box).toBeFocused();
    console.log(`front desk (${lang}) walk-in by phone sold, printed on 80 mm and A4, closed: ${desk.interactions}`);
    await expectEnteredNow(() => d.glance(d.byPhone.id), d.gate.name);

    // (d) A member whose group is closed now: no entrance on sale, and a warning before any other sale.
    await desk.swipe(d.cards.closed);
    await desk.member(d.names.closed[1]);
    await expect(page.getByTestId('desk-open-now')).toHaveAttribute('data-open', 'false');
    await expect(page.getByTestId('desk-open-now')).toContainText(L.closed);
    await expect(desk.verdict).toHaveAttribute('data-verdict', 'refuses');
    await expect(page.getByTestId('desk-sell')).toBeDisabled();
    await expect(page.getByTestId('desk-no-sale')).toBeVisible();
    await desk.press('F7');
    await expect(page.getByTestId('desk-sale-warning')).toBeVisible();
    await hebrewClean('closed group, load');
    await shot(page, `front-desk-${lang}-tablet-closed-warning`);
    // Cancel, again if a click during the dialog's opening animation was lost (seen once on a loaded CI machine).
    const dialog = page.getByRole('dialog');
    await expect(async () => {
      if (await dialog.isVisible())
        await dialog.getByRole('button', { name: lang === 'he' ? 'ביטול' : 'Cancel' }).click({ timeout: 3000 });
      await expect(dialog).toBeHidden({ timeout: 3000 });
    }).toPass({ timeout: 20_000 });
    await expect(desk.box).toBeFocused();

    // (e) …and admitted despite the refusal by a user with roleOverrideEntrance, the reason recorded.
    await expect(page.getByTestId('desk-override')).toBeVisible();
    await desk.press('F2');
    await page.getByTestId('override-reason').fill(L.reason);
    await hebrewClean('override');
    await desk.click(page.getByTestId('override-submit'));
    await expect(desk.result).toHaveAttribute('data-admitted', 'true');
    await expect(desk.result).toContainText(L.overridden);
    await shot(page, `front-desk-${lang}-tablet-override`);
    await expectEnteredNow(() => d.glance(d.shut.id), d.gate.name);
    expect((await d.glance(d.shut.id)).lastEntrance!.reason).toBe(29); // EntryByStaffOverride
    await expect(desk.box).toBeFocused();
  });
}
