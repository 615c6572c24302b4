import { expect, test } from './fixtures';
import { isoDate, localParts, subscriptionEnd } from '@venue/domain';
import { apiSession } from './api';
import { ClientMoneyPage } from './pages/ClientMoneyPage';

/**
 * Issue 4 "Done when": a client buys a subscription with a sandbox card at the
 * console and the receipt, the subscription end date and the balance update.
 */
test('buy a subscription with a sandbox card: receipt, end date and balance', async ({ page, request }) => {
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const group = await api.post<{ id: number }>('/api/Group', {
    name: `E2E money ${Date.now()}`,
    subscriptionEndType: 4,
  });
  const client = await api.post<{ id: number }>('/api/Client', {
    firstName: 'לקוחת',
    lastName: 'מנוי',
    groupId: group.id,
  });
  await api.post('/api/addCredit/' + client.id, { amount: 5000, idempotencyKey: `e2e-credit-${client.id}` });

  await page.goto('/login?userName=admin&password=demo1234&externalClubId=1001');
  await page.waitForURL(/dashboard|management/);
  const money = new ClientMoneyPage(page);
  await money.open(client.id);
  await money.tab('מנוי');
  await expect(money.subscriptionEnd()).toHaveText('—');
  await money.buySubscriptionByCard(
    '120.00',
    { number: '4242 4242 4242 4242', expiry: '12/35', cvv: '123' },
    'כרטיס אשראי',
  );
  await expect(money.receipt()).toBeVisible();
  await expect(page.getByTestId('receipt-total')).toContainText('120.00');
  // Gregorian day to day (the group's end type): a month from today in Jerusalem, by the domain rule.
  const end = subscriptionEnd(isoDate(localParts(new Date(), 'Asia/Jerusalem')), { period: 'month', endType: 4 });
  const expected = end.split('-').reverse().join('/');
  await expect(page.getByTestId('receipt-expiry')).toHaveText(expected);
  await page.keyboard.press('Escape');
  await expect(money.subscriptionEnd()).toHaveText(expected);
  await money.tab('רכישות');
  await expect(page.getByTestId('money-purchases')).toContainText('4242');
  await money.tab('יתרה');
  await expect(page.getByTestId('balance-value')).toHaveText('5000');
});
