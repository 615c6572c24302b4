import { expect, test } from './fixtures';
import { withIsraeliIdCheckDigit } from '@venue/domain';
import { apiSession } from './api';
import { presentCard } from './terminal';
import { ClientsPage } from './pages/ClientsPage';
import { LoginPage } from './pages/LoginPage';

const CLUB = 1001;

test('sign in in Hebrew, create a client, a card at the gate appears live in the entrance report, switch to English', async ({
  page,
  request,
}) => {
  // A group open around the clock, set up through the API.
  const api = await apiSession(request, 'admin', 'demo1234', CLUB);
  const groupName = `פתוח תמיד ${Date.now() % 100000}`;
  await api.post('/api/Group', {
    name: groupName,
    entranceState: 2,
    schedule: [{ days: [0, 1, 2, 3, 4, 5, 6, 7], fromTime: 0, toTime: 1440, entranceState: 2, price: 0 }],
  });

  const login = new LoginPage(page);
  await login.open();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'he');
  await login.signIn('admin', 'demo1234', CLUB);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('nav-clients')).toContainText('לקוחות');

  const card = String(900000 + (Date.now() % 99999));
  const lastName = `בדיקה${card}`;
  const clients = new ClientsPage(page);
  await clients.open();
  await clients.create({
    firstName: 'שושנה',
    lastName,
    personalId: withIsraeliIdCheckDigit(card.padStart(8, '3')),
    phone: '050-765-4321',
    cardSerial: card,
    groupName,
    subscriptionEnd: '2030-12-31',
  });
  // A new client opens at once (issue 19); back to the list to find it there.
  await expect(page).toHaveURL(/\/management\/clients\/\d+$/);
  await clients.open();
  await clients.search(lastName);
  await expect(page.getByTestId('clients-table')).toContainText(lastName);

  await page.getByTestId('nav-entranceReport').click();
  await expect(page.getByTestId('report-table')).toBeVisible();
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');

  const decision = presentCard(card);
  expect(decision.status).toBe(1);

  // The row arrives over the live socket, without a reload.
  await expect(page.getByTestId('report-table')).toContainText(lastName, { timeout: 5000 });

  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByTestId('nav-clients')).toContainText('Clients');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});
