import { expect, type Page } from '@playwright/test';

/** Page object of /management/employee-position-list. */
export class PositionsScreen {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/management/employee-position-list');
    await expect(this.page.getByTestId('position-new')).toBeVisible();
  }
  /** Creates a position through its drawer; the rate in shekels as typed. */
  async create(name: string, rate: string): Promise<void> {
    await this.page.getByTestId('position-new').click();
    await this.page.getByTestId('position-name').fill(name);
    await this.page.getByTestId('position-rate').fill(rate);
    await this.page.getByTestId('position-save').click();
    await expect(this.page.getByTestId('position-save')).toBeHidden();
  }
}

/** Page object of /management/attendance. */
export class AttendanceScreen {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/management/attendance');
    await expect(this.page.getByTestId('attendance-new')).toBeVisible();
  }
  present() {
    return this.page.getByTestId('attendance-present');
  }
  /** Sets an employee's position in the Employees dialog. */
  async setPosition(clientId: number, position: string): Promise<void> {
    await this.page.getByTestId('attendance-employees').click();
    await this.page.getByTestId(`employee-position-${clientId}`).click();
    await this.page.locator('.ant-select-dropdown:visible').getByText(position, { exact: true }).click();
    await this.page.keyboard.press('Escape');
  }
  /** Opens a record's edit dialog and types a new exit time (DD/MM/YYYY HH:mm). */
  async correctExit(recordId: number, exit: string): Promise<void> {
    await this.page.getByTestId(`attendance-edit-${recordId}`).click();
    // antd puts the picker's test id on its input.
    const input = this.page.getByTestId('attendance-exit');
    await input.click();
    await input.fill(exit);
    await input.press('Enter');
    await this.page.getByTestId('attendance-save').click();
    await expect(this.page.getByTestId('attendance-save')).toBeHidden();
  }
}
