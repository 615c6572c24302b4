import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from './fixtures';
import { currentServer } from './fixtures';
import { apiSession } from './api';
import { signInDemoAdmin } from './pages/LoginPage';
import { simulatorCommand } from './terminal';

/**
 * The gate in an emergency (issue 36; docs/gate-safety.md), as a new user would do it: the demo
 * club's three gates run in the terminal simulator (interactive mode, as on a real gate's screen);
 * the admin opens every gate from the gate safety screen (a reason, then the confirmation); every
 * simulated gate shows it is held open and a second console, on another screen, shows the banner
 * at once; the release (two steps again) closes the gates and takes the banner down.
 * With E2E_SHOTS, screenshots in Hebrew and English at 1280 and 390 px.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const SERIALS = ['DEMO-1', 'DEMO-2', 'DEMO-3'];

/** An interactive simulator of one demo gate: what its display printed so far. */
function simulator(serial: string): { proc: ChildProcess; out: () => string } {
  let text = '';
  const proc = spawn(...simulatorCommand(['interactive', '--serial', serial, '--server', currentServer().wsUrl]), {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: currentServer().dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  return { proc, out: () => text };
}

/** The last display block the simulator printed. */
const lastDisplay = (out: string) => out.slice(out.lastIndexOf('┌'));

const shot = async (page: Page, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  await page.waitForTimeout(400); // antd's animations
  await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

/** Starts or releases an emergency from the gate safety screen: the reason, then the confirmation. */
async function step(page: Page, testId: string, reason: string) {
  await page.getByTestId(testId).click();
  await page.getByTestId('safety-reason').fill(reason);
  await page.getByTestId('safety-next').click();
  await page.getByTestId('safety-confirm').click();
}

test('open-all from the console opens every simulated gate; the banner shows on a second console', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const gates = SERIALS.map(simulator);
  const second = await browser.newPage();
  try {
    // The simulators start slowly on a loaded machine. On failure, what they printed.
    await expect
      .poll(() => gates.every((g) => g.out().includes('[online]')), { timeout: 150_000 })
      .toBe(true)
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${gates.map((g) => g.out().slice(-600)).join('\n---\n')}`);
      });

    await signInDemoAdmin(page, 'he');
    await signInDemoAdmin(second, 'en');
    // The second console on a phone (the menu in a drawer after the sign-in).
    await second.setViewportSize({ width: 390, height: 844 });
    await second.goto('/dashboard');
    await expect(second.getByTestId('safety-banner')).toHaveCount(0);

    await page.goto('/management/gate-safety');
    await expect(page.getByTestId('safety-card-openAll')).toBeVisible();
    await shot(page, 'gate-safety-he-1280');
    // The first step alone changes nothing: no call is made before the confirmation.
    await page.getByTestId('safety-start-openAll').click();
    await page.getByTestId('safety-reason').fill('אזעקת אש בחדר הדוודים');
    await page.getByTestId('safety-next').click();
    await shot(page, 'gate-safety-confirm-he-1280');
    await page.getByTestId('safety-confirm').click();

    // Every simulated gate holds its gate open, and says why.
    for (const g of gates) {
      await expect.poll(() => lastDisplay(g.out()), { timeout: 10_000 }).toContain('EMERGENCY: ALL GATES OPEN');
      expect(lastDisplay(g.out())).toContain('HELD OPEN');
    }
    // Both consoles show the banner: the one that acted, and the second one on another screen, live.
    await expect(page.getByTestId('safety-banner')).toHaveAttribute('data-mode', 'openAll');
    const banner = second.getByTestId('safety-banner');
    await expect(banner).toHaveAttribute('data-mode', 'openAll');
    await expect(banner).toContainText('Emergency: every gate of the club is open');
    await expect(banner).toContainText('אזעקת אש בחדר הדוודים');
    await shot(page, 'gate-safety-on-he-1280');
    await shot(second, 'gate-safety-banner-en-390');
    await second.goto('/management/clients');
    await expect(second.getByTestId('safety-banner')).toBeVisible();

    // The audit log has who, why and when (read through the API).
    const api = await apiSession(request, 'admin', 'demo1234', 1001);
    const state = await api.get<{ mode: string; openAll: { reason: string; source: string } }>('/api/GateSafety/State');
    expect(state).toMatchObject({ mode: 'openAll', openAll: { reason: 'אזעקת אש בחדר הדוודים', source: 'console' } });

    await step(page, 'safety-release-openAll', 'מכבי האש אישרו');
    for (const g of gates) {
      await expect.poll(() => lastDisplay(g.out()), { timeout: 10_000 }).not.toContain('EMERGENCY');
    }
    await expect(second.getByTestId('safety-banner')).toHaveCount(0);
    await expect(page.getByTestId('safety-banner')).toHaveCount(0);

    // English, and the lockdown's banner, at phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await step(page, 'safety-start-lockdown', 'Threat reported outside');
    await expect(second.getByTestId('safety-banner')).toHaveAttribute('data-mode', 'lockdown');
    for (const g of gates) {
      await expect.poll(() => lastDisplay(g.out()), { timeout: 10_000 }).toContain('LOCKDOWN');
    }
    await shot(page, 'gate-safety-lockdown-he-390');
    await second.goto('/management/gate-safety');
    await shot(second, 'gate-safety-lockdown-en-390');
    await second.setViewportSize({ width: 1280, height: 800 });
    await shot(second, 'gate-safety-lockdown-en-1280');
    await step(page, 'safety-release-lockdown', 'המשטרה אישרה');
    await expect(second.getByTestId('safety-banner')).toHaveCount(0);
  } finally {
    // Leave the club as found for the next spec on this server.
    const api = await apiSession(request, 'admin', 'demo1234', 1001).catch(() => null);
    if (api) {
      for (const url of ['/api/GateSafety/ReleaseOpenAll', '/api/GateSafety/ReleaseLockdown']) {
        await api.post(url, { reason: 'End of the test', confirm: true }).catch(() => undefined);
      }
    }
    for (const g of gates) {
      g.proc.stdin?.end('quit\n');
      g.proc.kill();
    }
    await second.close();
  }
});
