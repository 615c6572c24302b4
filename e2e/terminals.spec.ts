import { currentServer, expect, test, type APIRequestContext } from './fixtures';
import { TerminalClient } from '../apps/terminal/src/client';
import { LoginPage } from './pages/LoginPage';
import { TerminalsPage } from './pages/TerminalsPage';

const CLUB = 1001;

/** Creates and approves a terminal through the API; returns its id, serial and secret. */
async function newTerminal(request: APIRequestContext) {
  await request.get('/api/health');
  const xsrf = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const login = await request.post('/api/Account', {
    data: { username: 'admin', password: 'demo1234', externalClubId: CLUB },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, 'X-XSRF-TOKEN': xsrf };
  const serial = `E2E-${Date.now() % 1_000_000}`;
  const created = await request.post('/api/Terminal', { data: { serial, name: `שער בדיקה ${serial}` }, headers });
  expect(created.ok()).toBe(true);
  const t = (await created.json()) as { id: number; serial: string; secret: string };
  expect((await request.patch(`/api/Terminal/${t.id}`, { data: { approved: true }, headers })).ok()).toBe(true);
  return t;
}

test('the terminals screen shows a terminal going online and offline, and opens its gate remotely', async ({
  page,
  request,
}) => {
  const t = await newTerminal(request);
  const login = new LoginPage(page);
  await login.open();
  await login.signIn('admin', 'demo1234', CLUB);
  await expect(page).toHaveURL(/\/dashboard$/);

  const terminals = new TerminalsPage(page);
  await terminals.open();
  await terminals.expectConnected(t.id, false);

  // A terminal (the simulator's client) connects: the dot turns on without reloading.
  const gate = new TerminalClient({
    url: currentServer().wsUrl,
    serial: t.serial,
    secret: t.secret,
    devices: ['card', 'coins'],
    heartbeat: false,
  });
  await gate.connect();
  try {
    await terminals.expectConnected(t.id, true);

    // Remote open gate: the terminal receives the action and answers; the console shows it done.
    await terminals.openDetails(t.id);
    await terminals.expectDetailConnected(true);
    await terminals.openGate();
    await expect.poll(() => gate.actions.map((a) => a.actionName)).toContain('openGate');
    expect(gate.gateOpenUntil).toBeGreaterThan(0);
    await expect(page.getByTestId('toasts')).toContainText('פתיחת שער');
    await expect(page.getByText('card')).toBeVisible();

    // The terminal reports a new door state: the remote view follows.
    gate.heartbeat(1);
    await expect(terminals.doorState()).toHaveText('סגור');
  } finally {
    await gate.close();
  }
  // It disconnects: the details page and the list show it offline.
  await terminals.expectDetailConnected(false);
  await terminals.open();
  await terminals.expectConnected(t.id, false);
});
