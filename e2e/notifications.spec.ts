import { expect, test } from './fixtures';
import { apiSession } from './api';

/**
 * Notices in the console (docs/notifications.md): with no SMTP or SMS settings (`npm start`), a debt
 * registered for a member queues a "new debt" SMS that the club's admin reads in the outbox; the
 * templates tab previews the club's wording. Screenshots in Hebrew and English, 1280 and 390 px.
 */
const CLUB = 1001;
test.use({ actionTimeout: 30_000 });

test('the outbox shows a queued notice; a template is previewed (he/en, desktop/phone)', async ({ page, request }) => {
  const admin = await apiSession(request, 'admin', 'demo1234', CLUB);
  const client = await admin.post<{ id: number }>('/api/Client', {
    firstName: 'נועה',
    lastName: 'הודעות',
    phone: '0527654321',
  });
  await admin.post('/api/Debts', { clientId: client.id, amount: 4500, description: 'מגבת' });

  for (const lang of ['he', 'en'] as const) {
    await page.addInitScript((l) => localStorage.setItem('venue.lang', l), lang);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(`/login?userName=admin&password=demo1234&externalClubId=${CLUB}`);
      await expect(page).toHaveURL(/\/dashboard/);
      await page.goto('/management/notifications');
      await expect(page.getByTestId('outbox-only')).toBeVisible();
      await expect(page.getByText('+972527654321').first()).toBeVisible();
      await expect(page.getByText(/45\.00/).first()).toBeVisible();
      await page.screenshot({ path: `screenshots/notifications-outbox-${lang}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('tab', { name: /Templates/ }).click();
  await page.getByTestId('template-preview').click();
  await expect(page.getByTestId('template-preview-card')).toContainText('/m');
  await page.screenshot({ path: 'screenshots/notifications-templates-en-1280.png', fullPage: true });
  await page.getByRole('tab', { name: /Settings/ }).click();
  await expect(page.getByText('candle lighting')).toBeVisible();
  await page.screenshot({ path: 'screenshots/notifications-settings-en-1280.png', fullPage: true });
});
