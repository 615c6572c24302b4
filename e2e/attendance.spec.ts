import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { e2eServers, currentServer, expect, test, type Page } from './fixtures';
import { apiSession } from './api';
import { AttendanceScreen, PositionsScreen } from './pages/AttendancePages';
import { LoginPage, confirmTermsIfAsked } from './pages/LoginPage';
import { ReportPage } from './pages/ReportPage';
import { simulatorCommand } from './terminal';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLUB = 1001;
const SHOTS = process.env.E2E_SHOTS ?? path.join(e2eServers()[0].dataDir, 'shots');

/** An employee clocks at DEMO-1 with the terminal simulator; returns its JSON answer. */
function clock(card: string, at: Date): { ok: boolean; action?: string } {
  const out = execFileSync(
    ...simulatorCommand([
      'attendance',
      'card',
      card,
      '--serial',
      'DEMO-1',
      '--at',
      at.toISOString(),
      '--server',
      currentServer().wsUrl,
    ]),
    { cwd: ROOT, env: { ...process.env, DATA_DIR: currentServer().dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

async function signInHebrew(page: Page): Promise<void> {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn('admin', 'demo1234', CLUB);
  await page.getByTestId('side-nav').waitFor();
  await confirmTermsIfAsked(page);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as the console's pickers type it, in the browser's zone (DD/MM/YYYY HH:mm). */
const typed = (d: Date) =>
  `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

test('attendance in Hebrew: a position, an employee clocks in and out at the simulator, the exit corrected, payroll exported', async ({
  page,
  request,
}) => {
  // The simulator's command line runs twice; a loaded CI machine once took most of the default 90 s.
  test.setTimeout(180_000);
  const api = await apiSession(request, 'admin', 'demo1234', CLUB);
  const club = await api.get<{
    id: number;
    isEmployeeAttendanceEnabled: boolean;
    attendanceAutoCloseHour: number | null;
  }>('/api/Club/GetCurrent');
  // Attendance on; no automatic closing while the journey runs (put back after).
  const before = {
    isEmployeeAttendanceEnabled: club.isEmployeeAttendanceEnabled,
    attendanceAutoCloseHour: club.attendanceAutoCloseHour,
  };
  await api.patch(`/api/Club/${club.id}`, { isEmployeeAttendanceEnabled: true, attendanceAutoCloseHour: null });
  try {
    await journey(page, api);
  } finally {
    await api.patch(`/api/Club/${club.id}`, before);
  }
});

/** The journey itself, once attendance is on. */
async function journey(page: Page, api: Awaited<ReturnType<typeof apiSession>>): Promise<void> {
  const card = String(700000 + (Date.now() % 99999));
  const employee = await api.post<{ id: number }>('/api/Client', {
    firstName: 'מרים',
    lastName: `בלנית${card}`,
    clientType: 2,
    cardSerial: card,
  });

  await signInHebrew(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('nav-attendance')).toBeVisible();

  // 1. A position with an hourly rate of ₪45.
  const positionName = `בלנית ${card}`;
  const positions = new PositionsScreen(page);
  await positions.open();
  await positions.create(positionName, '45');
  await expect(page.getByText(positionName)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/positions-he.png`, fullPage: true });

  // 2. The employee holds it.
  const screen = new AttendanceScreen(page);
  await screen.open();
  await screen.setPosition(employee.id, positionName);

  // 3. Clock in at the simulator: the employee is "in now".
  const inAt = new Date(Date.now() - 3 * 3_600_000);
  inAt.setSeconds(0, 0);
  expect(clock(card, inAt)).toMatchObject({ ok: true, action: 'in' });
  await page.reload();
  await expect(screen.present()).toContainText(`בלנית${card}`);
  expect(clock(card, new Date(Date.now() - 60_000))).toMatchObject({ ok: true, action: 'out' });
  await page.reload();
  await expect(screen.present()).not.toBeVisible();

  // 4. Correct the exit in the console: the original is kept.
  const list = await api.post<{ items: { id: number; clientId: number }[] }>('/api/AttendanceLog/GetAttendanceLogs', {
    clientId: employee.id,
    from: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
  });
  const record = list.items[0];
  const exit = new Date(inAt.getTime() + 2 * 3_600_000);
  await screen.correctExit(record.id, typed(exit));
  await expect(page.getByText('נערך').first()).toBeVisible();
  const after = await api.post<{ items: { id: number; exitAt: string; original: unknown; exitSource: string }[] }>(
    '/api/AttendanceLog/GetAttendanceLogs',
    { clientId: employee.id, from: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) },
  );
  expect(after.items[0]).toMatchObject({ exitAt: exit.toISOString(), exitSource: 'manual' });
  expect(after.items[0].original).not.toBeNull();
  await page.screenshot({ path: `${SHOTS}/attendance-he.png`, fullPage: true });

  // 5. Payroll: two hours at ₪45 = ₪90, exported.
  const report = new ReportPage(page);
  await report.open('/reports/payroll-report');
  // Yesterday to tomorrow: the shift began 3 hours ago, the day before in the club's time after its midnight.
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  await report.chooseRange('טווח');
  await report.setRange(day(-1), day(1));
  await expect(report.table()).toContainText(`בלנית${card}`);
  const file = await report.exportRows();
  expect(file.name).toMatch(/\.xlsx$/);
  const row = file.rows.find((r) => r.some((v) => String(v).includes(`בלנית${card}`)));
  expect(row).toContain(90);
  await page.screenshot({ path: `${SHOTS}/payroll-he.png`, fullPage: true });

  // English, and a phone's width.
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await screen.open();
  await expect(page.getByTestId(`attendance-edit-${record.id}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/attendance-en.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId(`attendance-edit-${record.id}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/attendance-phone-en.png`, fullPage: true });
}
