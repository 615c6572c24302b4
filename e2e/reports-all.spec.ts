import { expect, test, type APIRequestContext, type Page } from './fixtures';
import {
  formatDate,
  formatMinor,
  isoDate,
  localParts,
  NAV_ENTRIES,
  NAV_RULES,
  REPORTS,
  type NavContext,
  type ReportMeta,
  type ReportResult,
} from '@venue/domain';
import { apiSession } from './api';
import { ReportPage } from './pages/ReportPage';

/**
 * Issue 6 "Done when": a browser test opens each report, filters by a range,
 * exports .xlsx and reads the file back. The list is the report catalogue
 * itself (packages/domain reports.ts): every report whose navigation key has a
 * console route in the reports section, so a new report is covered without a
 * change here. Reports without such a route (today `clientEntrances`, the
 * client card's entrances tab) are not pages of their own; they are named in
 * the annotations of the first test.
 */
const catalogue = Object.values(REPORTS) as ReportMeta[];
const routeOf = (meta: ReportMeta) => NAV_ENTRIES.find((n) => n.key === meta.navKey && n.section === 'reports')?.route;
const withRoute = catalogue.filter((m) => routeOf(m));
const withoutRoute = catalogue.filter((m) => !routeOf(m));

type Settings = NavContext['settings'];
const ADMIN = ['admin', 'demo1234', 1001] as const;
/** Club settings that can hide a report entry (seed 000 §6, e.g. isUpsellEnabled for the product matrix). */
const SETTING_KEYS = [
  'isEmployeeAttendanceEnabled',
  'isUpsellEnabled',
  'isSaferPaymentsEnabled',
  'isQuickExitEnabled',
] as const satisfies readonly (keyof Settings)[];

let clubId = 0;
let restore: Partial<Settings> = {};
let hidden: string[] = [];
/** One signed-in page for all the reports (one sign-in keeps the run short). */
let page: Page;
let requests: APIRequestContext;
let api: Awaited<ReturnType<typeof apiSession>>;

test.describe('every report of the catalogue', () => {
  /**
   * Turns on each club setting that is off and shows a hidden report when on,
   * found from the navigation rules themselves; afterAll puts them back.
   */
  test.beforeAll(async ({ browser, playwright, server }, info) => {
    requests = await playwright.request.newContext({ baseURL: server.url });
    api = await apiSession(requests, ...ADMIN);
    const user = await api.get<NavContext['permissions']>('/api/Account/GetCurrent');
    const club = await api.get<Settings & { id: number; externalClubId: number }>('/api/Club/GetCurrent');
    const capacities = await api.get<{ capacity: number }[]>('/api/Club/GetCapacities');
    clubId = club.id;
    const current: Settings = {
      isKalaSubscriptionEnabled: club.isKalaSubscriptionEnabled,
      isEmployeeAttendanceEnabled: club.isEmployeeAttendanceEnabled,
      isIncidentReportEnabled: club.isIncidentReportEnabled,
      isUpsellEnabled: club.isUpsellEnabled,
      isSaferPaymentsEnabled: club.isSaferPaymentsEnabled,
      isQuickExitEnabled: club.isQuickExitEnabled,
    };
    const visible = (settings: Settings, m: ReportMeta) =>
      NAV_RULES[m.navKey]?.({
        permissions: user,
        externalClubId: club.externalClubId,
        settings,
        capacities: capacities.map((c) => c.capacity),
      }) === true;
    const needed: Partial<Settings> = {};
    for (const k of SETTING_KEYS) {
      if (current[k]) continue;
      if (withRoute.some((m) => !visible(current, m) && visible({ ...current, [k]: true }, m))) needed[k] = true;
    }
    restore = Object.fromEntries(Object.keys(needed).map((k) => [k, current[k as keyof Settings]]));
    if (Object.keys(needed).length) await api.patch(`/api/Club/${club.id}`, needed);
    hidden = withRoute.filter((m) => !visible({ ...current, ...needed }, m)).map((m) => m.id);

    page = await browser.newPage({ baseURL: server.url, viewport: info.project.use.viewport });
    await page.goto(`/login?userName=${ADMIN[0]}&password=${ADMIN[1]}&externalClubId=${ADMIN[2]}`);
    await page.waitForURL(/dashboard|management/);
  });

  test.afterAll(async () => {
    await page?.close();
    if (Object.keys(restore).length) await api.patch(`/api/Club/${clubId}`, restore);
    await requests?.dispose();
  });

  test('the demo admin sees every report that has a route', () => {
    test.info().annotations.push({
      type: 'not covered (no console route)',
      description: withoutRoute.map((m) => m.id).join(', ') || 'none',
    });
    expect(hidden).toEqual([]);
  });

  for (const meta of withRoute) {
    const route = routeOf(meta)!;
    test(`${meta.id} (${route}): range, rows and first total as the API, .xlsx read back`, async () => {
      const today = isoDate(localParts(new Date(), 'Asia/Jerusalem'));
      const from = `${today.slice(0, 8)}01`;
      const report = new ReportPage(page);

      // The page's own call for the range: the API is asked the same (page size included). Set up
      // before opening: the period kind is saved per user, so the page may open on "range" already.
      const call = page.waitForRequest(
        (r) =>
          r.method() === 'POST' && r.url().endsWith(`/api/Report/${meta.call}`) && r.postDataJSON()?.period === 'range',
      );
      call.catch(() => undefined); // a page that fails below leaves the wait pending until the page closes
      await page.goto(route);
      await expect(
        page.getByTestId(`report-${meta.id}`),
        `${route} should render the report page with its range label, totals and .xlsx export`,
      ).toBeVisible();
      await expect(report.table()).toBeVisible();
      await report.chooseRange('טווח');
      const body = (await call).postDataJSON() as { from: string; to: string; pageSize: number };
      expect([body.from, body.to]).toEqual([from, today]);
      await expect(report.rangeLabel()).toHaveText(`${formatDate(from)} – ${formatDate(today)}`);
      const answer = await api.post<ReportResult>(`/api/Report/${meta.call}`, {
        period: 'range',
        from,
        to: today,
        pageSize: body.pageSize,
      });
      expect([answer.range.from.slice(0, 10), answer.range.to.slice(0, 10)]).toEqual([from, today]);

      // Rows on the page: the API's count, up to one page.
      await expect(report.table().locator('tbody tr.ant-table-row')).toHaveCount(Math.min(answer.total, body.pageSize));
      // The first total card shows the API's first total.
      const first = meta.totals[0];
      const value = Number(answer.totals[first.key]);
      if (first.type === 'money') await expect(report.total(first.key)).toContainText(formatMinor(value, 'he-IL'));
      else if (first.type === 'int') await expect(report.total(first.key)).toHaveText(value.toLocaleString('he-IL'));
      // A totals row under the grid when the report has rows and totals that sit in its columns.
      const shown = meta.columns.filter((c) => !c.field);
      const totalsInColumns = meta.totals.some((t) => shown.some((c) => c.key === t.key));
      await expect(report.totalsRow()).toHaveCount(answer.total > 0 && totalsInColumns ? 1 : 0);

      if (answer.total === 0) {
        await page.getByTestId('grid-export').click();
        await expect(page.getByTestId('toasts').getByText('אין נתונים לייצוא')).toBeVisible();
        test.info().annotations.push({ type: 'export', description: 'no rows in the range: "no data to export"' });
        return;
      }
      const file = await report.exportRows();
      expect(file.name).toBe(`${meta.id}-${from}-${today}.xlsx`);
      // Header row: one cell per shown column, the first the grid's first column title.
      const firstTitle = (await report.table().locator('thead th').first().innerText()).trim();
      expect(file.rows[0], 'header row').toHaveLength(shown.length);
      expect(String(file.rows[0][0]).trim(), 'header row').toBe(firstTitle);
      // Every matching row (not only the page), the totals row, then the summary (docs/reports.md
      // "Formats and exports"), which opens with the row count.
      const last = file.rows[1 + answer.total];
      expect(file.rows[2 + answer.total], 'summary: row count').toEqual(['מספר רשומות', answer.total]);
      expect(last[0], 'totals row label').toBe('סה"כ');
      // Each total that has a column (past the label) carries the API's value, money in shekels.
      for (const t of meta.totals) {
        const i = shown.findIndex((c) => c.key === t.key);
        if (i <= 0) continue;
        const v = Number(answer.totals[t.key]);
        // Minutes are duration cells ([h]:mm): a day fraction from Excel's epoch, read back as a Date.
        const cell = last[i];
        const read = cell instanceof Date ? Math.round((cell.getTime() - Date.UTC(1899, 11, 30)) / 60_000) : cell;
        expect(read, `totals row: ${t.key}`).toBe(t.type === 'money' ? v / 100 : v);
      }
      test.info().annotations.push({ type: 'export', description: `${answer.total} rows read back` });
    });
  }
});
