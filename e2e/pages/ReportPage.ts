import { expect, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { formatDate } from '@venue/domain';

/** Page object of any report of the generic ReportPage (features/reports). */
export class ReportPage {
  constructor(private readonly page: Page) {}
  async open(route: string): Promise<void> {
    await this.page.goto(route);
    await expect(this.page.getByTestId('report-table')).toBeVisible();
  }
  /** Period "range" with the picker's default (first of the month to today). */
  async chooseRange(label: string): Promise<void> {
    await this.page.getByTestId('report-period').getByText(label, { exact: true }).click();
    await expect(this.page.getByTestId('report-range').first()).toBeVisible();
  }
  /** Types a range (YYYY-MM-DD; the picker shows and reads DD/MM/YYYY) into the range picker shown by {@link chooseRange}. */
  async setRange(from: string, to: string): Promise<void> {
    const inputs = this.page.getByTestId('report-filter').locator('.ant-picker-range input');
    for (const [i, v] of [from, to].entries()) {
      await inputs.nth(i).click();
      await inputs.nth(i).fill(formatDate(v));
      await inputs.nth(i).press('Enter');
    }
  }
  rangeLabel() {
    return this.page.getByTestId('report-range-label');
  }
  total(key: string) {
    return this.page.getByTestId(`report-total-${key}`);
  }
  totalsRow() {
    return this.page.getByTestId('grid-totals-row');
  }
  table() {
    return this.page.getByTestId('report-table');
  }
  /** Clicks export and reads the downloaded .xlsx back: rows of cell values. */
  async exportRows(): Promise<{ name: string; rows: unknown[][] }> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('grid-export').click(),
    ]);
    const file = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: download.suggestedFilename(), rows };
  }
}
