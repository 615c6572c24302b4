import { currentServer, expect, test } from './fixtures';
import { TerminalClient } from '../apps/terminal/src/client';
import { reportIncident } from '../apps/terminal/src/gate';
import { apiSession } from './api';

/**
 * Incident reports (docs/messages.md): with the club's incident reports on,
 * a client reports at the simulator; staff see it arrive on the incidents
 * screen without reloading and mark it handled. The setting is turned off
 * again at the end, so the other journeys see the demo club as it was.
 */
const CLUB = 1001;

test('a client reports an incident at the simulator; staff see it live and mark it handled', async ({
  page,
  request,
}) => {
  const admin = await apiSession(request, 'admin', 'demo1234', CLUB);
  const club = await admin.get<{ id: number }>('/api/Club/GetCurrent');
  await admin.patch(`/api/Club/${club.id}`, { isIncidentReportEnabled: true });
  try {
    const category = await admin.post<{ id: number }>('/api/FeedbackCategory', {
      name: 'מגבות חסרות',
      type: 'Maintenance',
      reportingSystemCategoryId: 12,
      defaultSeverityId: 3,
    });
    const serial = `INC-${Date.now() % 1_000_000}`;
    const t = await admin.post<{ id: number; serial: string; secret: string }>('/api/Terminal', {
      serial,
      name: `שער ${serial}`,
    });
    await admin.patch(`/api/Terminal/${t.id}`, { approved: true });

    await page.addInitScript(() => localStorage.setItem('venue.lang', 'he'));
    await page.goto(`/login?userName=admin&password=demo1234&externalClubId=${CLUB}`);
    // The category screen lists what was created through the API.
    await page.getByTestId('nav-feedbackCategories').click();
    await expect(page.getByRole('row', { name: /מגבות חסרות/ })).toContainText('תחזוקה');
    await page.getByTestId('nav-incidents').click();
    // The incidents screen itself (while a route's code loads, the router keeps the previous screen on view).
    await expect(page).toHaveURL(/\/management\/incidents/);
    await expect(page.getByRole('tab', { name: 'נשלחו למערכת הדיווח' })).toBeVisible();
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'open');

    const gate = new TerminalClient({
      url: currentServer().wsUrl,
      serial: t.serial,
      secret: t.secret,
      heartbeat: false,
    });
    await gate.connect();
    try {
      const reported = await reportIncident(gate, { categoryId: category.id, note: 'בבריכה 2' });
      expect(reported.incidentId).toBeGreaterThan(0);
    } finally {
      await gate.close();
    }
    // Live: no reload.
    const row = page.getByRole('row', { name: /מגבות חסרות/ });
    await expect(row).toContainText('בבריכה 2');
    await expect(row).toContainText(`שער ${serial}`);
    await page.screenshot({ path: 'screenshots/incidents-he.png', fullPage: true });
    // The dashboard lists the open incident too.
    await page.getByTestId('nav-dashboard').click();
    await expect(page.getByTestId('dashboard-incidents')).toContainText('מגבות חסרות');
    await page.getByTestId('nav-incidents').click();
    await row.getByTestId('incident-handle').click();
    await expect(page.getByTestId('toasts')).toContainText('התקלה סומנה כמטופלת');
    await expect(row).toHaveCount(0);
    // Nothing was sent: the club has no webhook to its reporting system.
    await page.getByRole('tab', { name: 'נשלחו למערכת הדיווח' }).click();
    await expect(page.getByText('עדיין לא נשלח דבר')).toBeVisible();
  } finally {
    await admin.patch(`/api/Club/${club.id}`, { isIncidentReportEnabled: false });
  }
});
