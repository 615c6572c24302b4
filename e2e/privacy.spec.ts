import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { e2eServers, expect, test } from './fixtures';
import { apiSession } from './api';
import { signInDemoAdmin } from './pages/LoginPage';

/**
 * Privacy (issue 39, docs/privacy.md) as the demo club's admin (who holds every flag, the security
 * officer's too): the retention settings and card, the past-retention notice over the entrance
 * report, a client's Privacy tab (copy, erasure with its confirmation, who opened her record) and
 * the access report showing that opening. Screenshots in he and en, 1280 and 390 px, to E2E_SHOTS
 * (default the server's data dir).
 */
const CLUB = 1001;
const SHOTS = process.env.E2E_SHOTS ?? path.join(e2eServers()[0].dataDir, 'shots');
mkdirSync(SHOTS, { recursive: true });

for (const lang of ['he', 'en'] as const) {
  test(`privacy screens in ${lang}`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const api = await apiSession(request, 'admin', 'demo1234', CLUB);
    const club = await api.get<{ id: number }>('/api/Club/GetCurrent');
    await api.patch(`/api/Club/${club.id}`, { retentionEntranceDays: 30 });
    const run = await api.post<{ entranceDetailFrom: string }>('/api/Privacy/RunRetention', {});
    expect(run.entranceDetailFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const list = await api.get<{ items: { id: number; number: number; status: number }[] }>(
      '/api/Client?page=1&pageSize=20',
    );
    const client = list.items[lang === 'he' ? 3 : 4]!;
    await signInDemoAdmin(page, lang);

    // Settings: the retention fields and the card with the last run.
    await page.goto('/management/app-settings');
    await expect(page.getByTestId('settings-section-privacy')).toBeVisible();
    const card = page.getByTestId('retention-card');
    await card.scrollIntoViewIfNeeded();
    await expect(card).toContainText(lang === 'he' ? '30 ימים' : '30 days');
    await page.screenshot({ path: `${SHOTS}/privacy-settings-${lang}-1280.png`, fullPage: true });

    // The entrance report over a year: past retention, said so.
    await page.goto('/reports/app-entranceReport');
    await page
      .getByTestId('report-period')
      .getByText(lang === 'he' ? 'שנה' : 'Year', { exact: true })
      .click();
    await expect(page.getByTestId('retention-notice')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/privacy-report-notice-${lang}-1280.png` });

    // Her page: the Privacy tab; opening the page is a read of her record.
    await page.goto(`/management/clients/${client.id}`);
    await page.getByRole('tab', { name: lang === 'he' ? 'פרטיות' : 'Privacy' }).click();
    const tab = page.getByTestId('privacy-tab');
    await expect(tab).toBeVisible();
    await expect(tab.locator('.ant-table-row').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/privacy-tab-${lang}-1280.png`, fullPage: true });
    // The copy downloads as JSON.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('privacy-copy-json').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`client-${client.number}-copy.json`);
    // Erasure asks for her number; a wrong one erases nothing.
    await page.getByTestId('privacy-erase').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('spinbutton').fill(String(client.number + 1000));
    await page.screenshot({ path: `${SHOTS}/privacy-erase-confirm-${lang}-1280.png` });
    await dialog
      .getByRole('button', { name: lang === 'he' ? 'מחיקת הפרטים האישיים' : 'Erase her personal data' })
      .click();
    await expect(page.getByText(lang === 'he' ? 'אינו תואם' : 'does not match').first()).toBeVisible();
    await dialog.getByRole('spinbutton').fill(String(client.number));
    await dialog
      .getByRole('button', { name: lang === 'he' ? 'מחיקת הפרטים האישיים' : 'Erase her personal data' })
      .click();
    await expect(tab.locator('.ant-alert-success')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/privacy-erased-${lang}-1280.png`, fullPage: true });

    // The access report shows her record opened.
    await page.goto('/reports/data-access-report');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await expect(page.getByTestId('report-table')).toContainText(String(client.number));
    await page.screenshot({ path: `${SHOTS}/privacy-access-report-${lang}-1280.png`, fullPage: true });

    // Phone width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/reports/data-access-report');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/privacy-access-report-${lang}-390.png`, fullPage: true });
    await page.goto(`/management/clients/${client.id}`);
    // At phone width the last tabs sit beyond the tab bar's scroll: clicked where they are.
    const privacyTab = page.getByRole('tab', { name: lang === 'he' ? 'פרטיות' : 'Privacy' });
    await privacyTab.evaluate((el) => (el as HTMLElement).click());
    await expect(page.getByTestId('privacy-tab')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/privacy-tab-${lang}-390.png`, fullPage: true });
  });
}

for (const lang of ['he', 'en'] as const) {
  test(`visitor mode in ${lang}`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const api = await apiSession(request, 'admin', 'demo1234', CLUB);
    const club = await api.get<{ id: number }>('/api/Club/GetCurrent');
    await api.patch(`/api/Club/${club.id}`, { visitorMode: false });
    try {
      await signInDemoAdmin(page, lang);
      await page.setViewportSize({ width: 1440, height: 900 });
      // Settings → Privacy: the switch with its explanation; saved, the card says it is on.
      await page.goto('/management/app-settings');
      const section = page.getByTestId('settings-section-privacy');
      await expect(section).toContainText(lang === 'he' ? 'חלון ההחלטה' : 'decision window', { timeout: 30_000 });
      await section.getByRole('switch').click();
      await page.getByTestId('settings-save').click();
      const card = page.getByTestId('retention-card');
      await expect(card).toContainText(lang === 'he' ? 'נשמרות לפי אדם 25 שעות' : 'kept per person for 25 hours');
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/visitor-mode-settings-${lang}-1440.png`, fullPage: true });
      // The entrance report says visitor mode instead of showing empty rows as zeros.
      await page.goto('/reports/app-entranceReport');
      await page
        .getByTestId('report-period')
        .getByText(lang === 'he' ? 'שנה' : 'Year', { exact: true })
        .click();
      await expect(page.getByTestId('retention-notice')).toContainText(lang === 'he' ? 'מצב מבקרים' : 'Visitor mode');
      await page.screenshot({ path: `${SHOTS}/visitor-mode-report-${lang}-1440.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/management/app-settings');
      await page.getByTestId('settings-section-privacy').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/visitor-mode-settings-${lang}-390.png` });
    } finally {
      await api.patch(`/api/Club/${club.id}`, { visitorMode: false });
    }
  });
}
