import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { currentServer, expect, test, type APIRequestContext } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { TerminalsPage } from './pages/TerminalsPage';
import { simulatorCommand } from './terminal';

/**
 * Remote view (seed 001 §2; docs/terminal-protocol.md "Remote view"): the
 * terminal simulator runs in its interactive mode as a separate process, a
 * card is presented and a cash session started on its keyboard, and the
 * technician watches the terminal's page in the console follow its screen
 * without reloading.
 */

const CLUB = 1001;
const ROOT = path.resolve(import.meta.dirname, '..');

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
  const serial = `RV-${Date.now() % 1_000_000}`;
  const created = await request.post('/api/Terminal', { data: { serial, name: `צפייה ${serial}` }, headers });
  expect(created.ok()).toBe(true);
  const t = (await created.json()) as { id: number; serial: string; secret: string };
  expect((await request.patch(`/api/Terminal/${t.id}`, { data: { approved: true }, headers })).ok()).toBe(true);
  return t;
}

/** The interactive simulator (`npm run terminal -- interactive`), typed into through its stdin. */
function simulator(serial: string, secret: string): { proc: ChildProcessWithoutNullStreams; output: () => string } {
  const proc = spawn(
    ...simulatorCommand([
      'interactive',
      '--serial',
      serial,
      // One argument: a secret may start with '-' (issued before the server stopped issuing such).
      `--secret=${secret}`,
      '--server',
      currentServer().wsUrl,
    ]),
    { cwd: ROOT, env: { ...process.env, DATA_DIR: currentServer().dataDir } },
  );
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, output: () => out };
}

test('the terminal page shows what the simulator’s screen shows, live', async ({ page, request }) => {
  // The simulator is a process of its own: slow to start on a busy machine.
  test.setTimeout(240_000);
  const t = await newTerminal(request);
  const login = new LoginPage(page);
  await login.open();
  await login.signIn('admin', 'demo1234', CLUB);
  await expect(page).toHaveURL(/\/dashboard$/);
  const terminals = new TerminalsPage(page);
  await terminals.open();
  await terminals.openDetails(t.id);
  await terminals.expectDetailConnected(false);
  await expect(page.getByTestId('terminal-screen-empty')).toBeVisible();

  const sim = simulator(t.serial, t.secret);
  try {
    // Connected (the simulator prints its display once welcomed): the idle screen arrives with its prompt.
    await expect.poll(sim.output, { timeout: 120_000 }).toContain('┌');
    await terminals.expectDetailConnected(true);
    await expect(page.getByTestId('terminal-screen-prompt')).toHaveText('נא להציג כרטיס, טביעת אצבע או קוד', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('terminal-screen-view')).toHaveText('בהמתנה');

    // A card at the gate: the decision the terminal shows appears on the page.
    sim.proc.stdin.write('card 100001\n');
    await expect.poll(sim.output, { timeout: 30_000 }).toMatch(/WELCOME|REFUSED/);
    const decided = /(WELCOME|REFUSED) (.*?) — (\w+) \(status (\d+)/.exec(sim.output());
    expect(decided).not.toBeNull();
    await expect(page.getByTestId('terminal-screen-view')).toHaveText('החלטה');
    const decision = page.getByTestId('terminal-screen-decision');
    await expect(decision).toBeVisible();
    if (decided![2].trim()) await expect(decision).toContainText(decided![2].trim());
    await expect(page.getByTestId('terminal-screen-gate')).toHaveText(
      decided![1] === 'WELCOME' ? 'השער פתוח' : 'השער סגור',
    );

    // A cash session on the simulator: the cash display follows each coin.
    sim.proc.stdin.write('pay card 100001 30\n');
    await expect(page.getByTestId('terminal-screen-view')).toHaveText('תשלום במזומן');
    await expect(page.getByTestId('terminal-screen-cash')).toContainText('לתשלום 30.00 ₪');
    sim.proc.stdin.write('coin 10\n');
    await expect(page.getByTestId('terminal-screen-cash')).toContainText('הוכנסו 10.00 ₪');
    sim.proc.stdin.write('cancel\n');
    await expect(page.getByTestId('terminal-screen-cash')).toContainText('בוטל');

    // Reloading the page answers the kept screen (GET /api/Terminal/GetScreen): the last decision stays on it.
    await page.reload();
    await expect(page.getByTestId('terminal-screen-decision')).toBeVisible({ timeout: 30_000 });
    if (decided![2].trim())
      await expect(page.getByTestId('terminal-screen-decision')).toContainText(decided![2].trim());
  } finally {
    sim.proc.stdin.write('quit\n');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sim.proc.kill();
        resolve();
      }, 10_000);
      sim.proc.on('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  // Gone: the page keeps the last screen and says the terminal is not connected.
  await terminals.expectDetailConnected(false);
  await expect(page.getByTestId('terminal-screen-at')).toContainText('העמדה אינה מחוברת');
});
