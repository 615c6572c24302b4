import { expect, type Page } from '@playwright/test';
import { formatDate } from '@venue/domain';

export interface NewClient {
  firstName: string;
  lastName: string;
  personalId: string;
  phone: string;
  cardSerial: string;
  groupName: string;
  subscriptionEnd: string;
}

/** Page object of /management/clients and its client form. */
export class ClientsPage {
  constructor(private readonly page: Page) {}
  async open(): Promise<void> {
    await this.page.getByTestId('nav-clients').click();
    await this.page.getByTestId('clients-table').waitFor();
  }
  async create(c: NewClient): Promise<void> {
    const p = this.page;
    await p.getByTestId('client-new').click();
    await p.getByTestId('client-firstName').fill(c.firstName);
    await p.getByTestId('client-lastName').fill(c.lastName);
    await p.getByTestId('client-personalId').fill(c.personalId);
    await p.getByTestId('client-phone').fill(c.phone);
    await p.getByTestId('client-cardSerial').fill(c.cardSerial);
    // Type to filter: a club has more groups than the dropdown's virtual list renders at once.
    // The options are drawn again when the groups' open-now states arrive: a click during that is
    // lost, so pick until the field shows the group.
    const group = p.getByTestId('client-group');
    const option = p.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${c.groupName}"]`);
    await expect(async () => {
      if (!(await group.innerText()).includes(c.groupName)) {
        if (!(await option.isVisible())) {
          await group.click();
          await group.locator('input').fill(c.groupName);
        }
        await option.click({ timeout: 5000 });
      }
      await expect(group).toContainText(c.groupName, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    const end = p.getByTestId('client-subscriptionEnd');
    await end.click();
    // The pickers show the console's one format (DD/MM/YYYY; docs/console-management.md "One format").
    await end.fill(formatDate(c.subscriptionEnd));
    await end.press('Enter');
    await p.getByTestId('client-save').click();
  }
  async search(text: string): Promise<void> {
    const box = this.page.getByTestId('clients-search').locator('input');
    await box.fill(text);
    await box.press('Enter');
  }
}
