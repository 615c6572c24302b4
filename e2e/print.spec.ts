import { expect, test } from './fixtures';
import { demoEntranceRange } from './api';
import { ReportPage } from './pages/ReportPage';
import { signIn } from './screens';

/**
 * Print fits A4 (issue 19 "Exports and print"; docs/console-management.md "Print"):
 * the entrance report of three weeks, printed with its print button, is laid out on
 * an A4 landscape page (its list is wider than a portrait page takes) with every
 * column inside the paper's width — the amount column last — and the totals.
 * Checked twice: the layout under print media at the printable width of A4
 * landscape, and the PDF Chromium prints (its page size).
 */
const MM = 96 / 25.4;
/** A4 landscape less the 10 mm margins of shared/print.ts, in CSS pixels. */
const PRINTABLE = { width: Math.floor((297 - 20) * MM), height: Math.floor((210 - 20) * MM) };

test('the printed entrance report fits A4 landscape with its amount column and totals', async ({ page, request }) => {
  const all = await demoEntranceRange(request);
  const { from, to } = all;
  expect(all.total).toBeGreaterThan(25);

  await page.addInitScript(() => localStorage.setItem('venue.lang', 'he'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  const report = new ReportPage(page);
  await report.open('/reports/app-entranceReport');
  await report.chooseRange('טווח');
  await report.setRange(from, to);
  // The print dialog is the browser's: record that it was asked for and stay in the print view.
  await page.evaluate(() => {
    const w = window as unknown as { printCalls: number };
    w.printCalls = 0;
    window.print = () => {
      w.printCalls += 1;
    };
  });
  await page.getByTestId('grid-print').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
  await expect(page.locator('[data-printing="true"]')).toHaveCount(1);
  // A wide list asks for a landscape page.
  expect(await page.evaluate(() => document.querySelector('style[data-print-page]')?.textContent)).toMatch(
    /size: A4 landscape/,
  );

  await page.emulateMedia({ media: 'print' });
  await page.setViewportSize(PRINTABLE);
  const layout = await page.evaluate(() => {
    const table = document.querySelector('[data-testid="report-table"]')!;
    const heads = [...table.querySelectorAll('thead th')].filter((th) => th.getBoundingClientRect().width > 0);
    const amount = heads.find((th) => th.textContent?.trim() === 'סכום');
    const totals = document.querySelector('[data-testid="report-totals"]');
    const totalsRow = table.querySelector('[data-testid="grid-totals-row"]');
    const width = document.documentElement.clientWidth;
    const inside = (el: Element | null | undefined) => {
      const r = el?.getBoundingClientRect();
      return Boolean(r && r.width > 0 && r.left >= -1 && r.right <= width + 1);
    };
    return {
      width,
      scroll: document.documentElement.scrollWidth - width,
      columns: heads.length,
      outside: heads.filter((th) => !inside(th)).map((th) => th.textContent?.trim()),
      amountInside: inside(amount),
      totalsInside: inside(totals),
      totalsRowInside: inside(totalsRow),
      amountTotal: document.querySelector('[data-testid="report-total-amount"]')?.textContent ?? '',
      rows: table.querySelectorAll('tbody tr.ant-table-row').length,
    };
  });
  expect(layout.columns).toBeGreaterThan(6);
  expect(layout.outside).toEqual([]);
  expect(layout.scroll).toBeLessThanOrEqual(0);
  expect(layout.amountInside).toBe(true);
  expect(layout.totalsInside).toBe(true);
  expect(layout.totalsRowInside).toBe(true);
  expect(layout.amountTotal).toMatch(/₪/);
  expect(layout.rows).toBe(Math.min(all.total, 5000));

  // The PDF Chromium prints takes the page rule: A4 landscape (842 × 595 pt).
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g)];
  expect(boxes.length).toBeGreaterThan(0);
  for (const b of boxes) {
    expect(Math.round(Number(b[1]))).toBe(842);
    expect(Math.round(Number(b[2]))).toBe(595);
  }
  if (process.env.E2E_SHOTS) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${process.env.E2E_SHOTS}/entrance-print.pdf`, pdf);
    await page.screenshot({ path: `${process.env.E2E_SHOTS}/entrance-print.png`, fullPage: false });
  }
});
