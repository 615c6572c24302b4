import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Page object of the front desk (/front-desk; docs/front-desk.md). It counts the cashier's
 * interactions after a search — each click and each key press (Enter, a function key, Esc) —
 * for the interaction budget of issue 35: the characters of the search (a card reader's or the
 * cashier's typing) and its Enter are the search itself, not counted.
 */
export class FrontDeskPage {
  /** Clicks and key presses since the last search. */
  interactions = 0;
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/front-desk');
    await expect(this.box).toBeFocused();
  }
  get box(): Locator {
    return this.page.getByTestId('desk-search');
  }
  get glance(): Locator {
    return this.page.getByTestId('desk-glance');
  }
  get verdict(): Locator {
    return this.page.getByTestId('desk-verdict');
  }
  get result(): Locator {
    return this.page.getByTestId('desk-result');
  }

  /**
   * What a keyboard-wedge card reader does: types the card's number into the focused box and
   * presses Enter. Also a phone, a name, an ID or a member number typed by the cashier.
   * Starts the count of interactions.
   */
  async swipe(text: string): Promise<void> {
    await expect(this.box).toBeFocused();
    await this.page.keyboard.type(text);
    await this.page.keyboard.press('Enter');
    this.interactions = 0;
  }
  /** The member opened at a glance (one match opens at once). */
  async member(name: RegExp | string): Promise<void> {
    await expect(this.page.getByTestId('desk-name')).toContainText(name);
    await expect(this.verdict).toBeVisible();
  }
  /** A key press that counts (F2, F4, Enter in a dialog, Esc). */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
    this.interactions += 1;
  }
  /** A click that counts. */
  async click(target: Locator): Promise<void> {
    await target.click();
    this.interactions += 1;
  }
}
