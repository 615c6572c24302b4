import { currentServer, expect, test } from './fixtures';
import { TerminalClient } from '../apps/terminal/src/client';
import { reportIncident } from '../apps/terminal/src/gate';
import { apiSession, readAllMessages } from './api';

/**
 * Incident reports (docs/messages.md): with the club's incident reports on,
 * a client reports at the simulator; staff see it arrive on the incidents
 * screen without reloading and mark it handled. The setting is turned off
 * again at the end, so the other journeys see the demo club as it was.
 */
const CLUB = 1001;
test.use({ actionTimeout: 30_000 });

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

test('staff report an incident in the console at a terminal; an empty category is "required"', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await readAllMessages(request, 'admin', 'demo1234', CLUB);
  const admin = await apiSession(request, 'admin', 'demo1234', CLUB);
  const club = await admin.get<{ id: number }>('/api/Club/GetCurrent');
  await admin.patch(`/api/Club/${club.id}`, { isIncidentReportEnabled: true });
  try {
    const name = `Water too cold ${Date.now() % 100_000}`;
    await admin.post('/api/FeedbackCategory', {
      name,
      type: 'Experience',
      reportingSystemCategoryId: 14,
      defaultSeverityId: 2,
    });
    const serial = `INC-C-${Date.now() % 1_000_000}`;
    await admin.post('/api/Terminal', { serial, name: `Pool gate ${serial}` });

    await page.addInitScript(() => localStorage.setItem('venue.lang', 'en'));
    await page.goto(`/login?userName=admin&password=demo1234&externalClubId=${CLUB}`);
    await page.getByTestId('nav-incidents').click();
    await expect(page).toHaveURL(/\/management\/incidents/);
    await page.getByTestId('incident-new').click();
    const drawer = page.getByRole('dialog', { name: 'Report an incident' });
    // No category chosen: the field says "Required", not "Invalid identifier" (issue 34).
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expect(drawer.locator('.ant-form-item-explain-error')).toHaveText(['Required']);
    await expect(drawer).not.toContainText('Invalid identifier');

    await page.getByTestId('incident-category').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).click();
    await page.getByTestId('incident-terminal').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `Pool gate ${serial}` })
      .click();
    await page.getByTestId('incident-note').fill('Jacuzzi');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('toasts')).toContainText('Incident reported');
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText(`Pool gate ${serial}`);
    await expect(row).toContainText('Jacuzzi');
  } finally {
    await admin.patch(`/api/Club/${club.id}`, { isIncidentReportEnabled: false });
  }
});
