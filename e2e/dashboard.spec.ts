import { expect, test, type Page } from './fixtures';
import { formatMinor, type ChartPoint } from '@venue/domain';
import { apiSession } from './api';
import { presentCard } from './terminal';

const CLUB = 1001;

/** A counter's figure: on the first screen before antd, then on the dashboard (both mark it data-counter). */
const counter = (page: Page, id: string) => page.getByTestId(id).locator('[data-counter]');

/**
 * Issue 6 (dashboard): the seed's twelve figures (seed 000 §2) render with
 * the demo club in Hebrew and English, and the counters follow the gate live.
 */
test('dashboard: every seed figure renders with the demo club, switches measure and language, follows the gate live', async ({
  page,
  request,
}) => {
  const api = await apiSession(request, 'admin', 'demo1234', CLUB);
  const stamp = Date.now() % 100000;
  // A product with a long Hebrew name sold this month (the product chart has at least one bar).
  const product = await api.post<{ id: number }>('/api/Product', {
    name: `סבון רחצה טבעי בניחוח לבנדר ושמן זית במארז חיסכון ${stamp}`,
    price: 2350,
  });
  const buyer = await api.post<{ id: number }>('/api/Client', { firstName: 'לוח', lastName: `בקרה ${stamp}` });
  await api.post('/api/Client/AdminPurchase', {
    clientId: buyer.id,
    purchaseItems: [{ itemType: 10, itemId: product.id, name: 'סבון', quantity: 2, unitPrice: 2350 }],
    payments: [{ method: 0, amount: 4700 }],
    idempotencyKey: `e2e-dashboard-${stamp}`,
  });
  // A client at an always-open group, for the live part.
  const group = await api.post<{ id: number }>('/api/Group', {
    name: `לוח בקרה ${stamp}`,
    entranceState: 2,
    schedule: [{ days: [0, 1, 2, 3, 4, 5, 6, 7], fromTime: 0, toTime: 1440, entranceState: 2, price: 0 }],
  });
  const card = String(800000 + stamp);
  await api.post('/api/Client', {
    firstName: 'חיה',
    lastName: `כניסה ${stamp}`,
    groupId: group.id,
    cardSerial: card,
    subscriptionEnd: '2030-12-31',
    licenseExpiry: '2030-12-31',
  });

  const call = <T>(name: string) => api.post<T>(`/api/Dashboard/${name}`, {});
  const income = (await call<{ value: number }>('GetMonthlyIncome')).value;
  const valid = (await call<{ value: number }>('GetValidLicensesCount')).value;
  const expired = (await call<{ value: number }>('GetExpiredLicensesCount')).value;
  const monthly = (await call<{ value: number }>('GetMonthlyEntranceCount')).value;
  const lastWeek = (await call<{ value: number }>('GetLastWeekArrivalsCount')).value;
  const byProduct = await call<ChartPoint[]>('GetChartDataByProduct');
  expect(income).toBeGreaterThanOrEqual(4700);
  expect(byProduct.length).toBeGreaterThan(0);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/login?userName=admin&password=demo1234&externalClubId=${CLUB}`);
  await page.waitForURL(/dashboard/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

  const grouped = new Intl.NumberFormat('en-US'); // antd's Statistic groups with commas
  await expect(counter(page, 'card-monthly-income')).toHaveText(`₪${formatMinor(income, 'he-IL')}`);
  await expect(counter(page, 'card-valid-licenses')).toContainText(grouped.format(valid));
  await expect(counter(page, 'card-expired-licenses')).toContainText(grouped.format(expired));
  await expect(counter(page, 'card-last-week-arrivals')).toContainText(grouped.format(lastWeek));
  await expect(page.getByTestId('card-monthly-income')).toContainText('הכנסות החודש');

  // Every chart card draws a chart (not "no data", not an error).
  for (const [cardId, chartId] of [
    ['card-by-status', 'chart-by-status'],
    ['card-by-time', 'chart-by-time'],
    ['card-by-payment-type', 'chart-by-payment-type'],
    ['card-by-group', 'chart-by-group'],
    ['card-by-item-type', 'chart-by-item-type'],
    ['card-by-product', 'chart-by-product'],
  ]) {
    await expect(page.getByTestId(cardId).getByTestId(chartId).locator('canvas'), cardId).toBeVisible();
    await expect(page.getByTestId(cardId).locator('.ant-alert-error'), cardId).toHaveCount(0);
  }
  await expect(page.getByTestId('card-by-payment-type')).toContainText('כניסות לפי סוג תשלום');

  // Amount / quantity: the switch asks the quantity call and redraws.
  const qty = page.waitForResponse((r) => r.url().endsWith('/api/Dashboard/GetChartDataQtyByProduct'));
  await page.getByTestId('measure-product').getByText('כמות').click();
  expect((await qty).status()).toBe(200);
  await expect(page.getByTestId('chart-by-product').locator('canvas')).toBeVisible();

  // Live: an approved entrance at the gate raises this month's and last week's counters without a reload.
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');
  expect(presentCard(card).status).toBe(1);
  await expect(counter(page, 'card-monthly-entrances')).toContainText(grouped.format(monthly + 1));
  await expect(counter(page, 'card-last-week-arrivals')).toContainText(grouped.format(lastWeek + 1));

  // English, on a phone: the cards stack and keep their charts.
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('card-monthly-income')).toContainText('Income this month');
  await expect(page.getByTestId('card-by-product')).toContainText('Revenue by product');
  const incomeBox = await page.getByTestId('card-monthly-income').boundingBox();
  const validBox = await page.getByTestId('card-valid-licenses').boundingBox();
  expect(incomeBox && validBox && validBox.y > incomeBox.y + incomeBox.height - 1).toBe(true);
  expect(incomeBox!.width).toBeLessThanOrEqual(390);
  await page.getByTestId('card-by-product').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('chart-by-product').locator('canvas')).toBeVisible();
});
