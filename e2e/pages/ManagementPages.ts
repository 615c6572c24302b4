import { expect, type Page } from '@playwright/test';

/** Page object of the clients import dialog (/management/clients → Import). */
export class ImportDialog {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/management/clients');
    await this.page.getByTestId('client-import').click();
  }
  async choose(name: string, buffer: Buffer): Promise<void> {
    await this.page.locator('.ant-modal input[type=file]').setInputFiles({
      name,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
  }
  async check(): Promise<void> {
    await this.page.getByTestId('import-preview').click();
  }
  errors() {
    return this.page.getByTestId('import-errors');
  }
  async commit(): Promise<void> {
    await this.page.getByTestId('import-commit').click();
    await expect(this.page.getByTestId('import-done')).toBeVisible();
  }
}

/** Page object of a group's edit screen with its schedule editor and week preview. */
export class GroupEditor {
  constructor(private readonly page: Page) {}
  async open(groupId: number): Promise<void> {
    await this.page.goto(`/management/app-groups-list/${groupId}`);
    await this.page.getByTestId('schedule-table').waitFor();
  }
  async save(): Promise<void> {
    await this.page.getByTestId('group-save').click();
    await this.page.waitForURL('**/management/app-groups-list');
  }
  weekPreview() {
    return this.page.getByTestId('week-preview');
  }
}

/** Page object of the users screen and its form. */
export class UsersScreen {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.goto('/management/app-users-list');
    await this.page.getByTestId('users-table').waitFor();
  }
  async create(username: string, password: string, flags: string[]): Promise<void> {
    const p = this.page;
    await p.getByTestId('user-new').click();
    await p.getByTestId('user-username').fill(username);
    await p.getByTestId('user-password').fill(password);
    await p.getByTestId('perm-remove-all').click();
    for (const f of flags) await p.getByTestId(`perm-${f}`).check();
    await p.getByTestId('user-save').click();
    await expect(p.getByTestId(`user-link-${username}`)).toBeVisible();
  }
}
