import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { withIsraeliIdCheckDigit } from '@venue/domain';
import { apiSession } from './api';
import { ClientsPage } from './pages/ClientsPage';
import { LoginPage } from './pages/LoginPage';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLUB = 1001;

/** Presents a card with the terminal simulator, as a gate would; returns its JSON decision. */
function presentCard(card: string): { status: number; reason: number; clientName?: string } {
  const out = execFileSync(
    'npx',
    [
      'tsx',
      'apps/terminal/src/cli.ts',
      'present',
      'card',
      card,
      '--serial',
      'DEMO-1',
      '--server',
      `ws://127.0.0.1:${process.env.E2E_PORT}`,
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR }, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

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
