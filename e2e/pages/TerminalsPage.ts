import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of /management/app-terminals-list and a terminal's details page. */
export class TerminalsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/management/app-terminals-list');
    await expect(this.page.getByTestId('terminals-table')).toBeVisible();
  }

  /** The live connection dot of a terminal in the list. */
  liveDot(id: number): Locator {
    return this.page.getByTestId(`terminal-live-${id}`);
  }

  async expectConnected(id: number, connected: boolean): Promise<void> {
    await expect(this.liveDot(id)).toHaveAttribute('data-connected', connected ? 'true' : 'false');
  }

  async openDetails(id: number): Promise<void> {
    await this.page.getByTestId(`terminal-link-${id}`).click();
    await expect(this.page.getByTestId('terminal-title')).toBeVisible();
  }

  async expectDetailConnected(connected: boolean): Promise<void> {
    await expect(this.page.getByTestId('terminal-detail-live')).toHaveAttribute(
      'data-connected',
      connected ? 'true' : 'false',
    );
  }

  async openGate(): Promise<void> {
    await this.page.getByTestId('terminal-open-gate').click();
  }

  doorState(): Locator {
    return this.page.getByTestId('terminal-door-state');
  }
}
