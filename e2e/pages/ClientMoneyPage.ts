import type { Page } from '@playwright/test';

/** Page object of the money tabs of a client's details page (features/client-money). */
export class ClientMoneyPage {
  constructor(private readonly page: Page) {}
  async open(clientId: number): Promise<void> {
    await this.page.goto(`/management/clients/${clientId}`);
  }
  async tab(name: string): Promise<void> {
    await this.page.getByRole('tab', { name }).click();
  }
  async buySubscriptionByCard(
    priceText: string,
    card: { number: string; expiry: string; cvv: string },
    methodLabel: string,
  ) {
    await this.page.getByTestId('buy-subscription').click();
    await this.page.getByTestId('item-price-0').fill(priceText);
    await this.page.getByTestId('payment-method-0').click();
    await this.page.getByTitle(methodLabel).click();
    await this.page.getByTestId('card-number-0').fill(card.number);
    await this.page.getByTestId('card-expiry-0').fill(card.expiry);
    await this.page.getByTestId('card-cvv-0').fill(card.cvv);
    await this.page.getByTestId('purchase-submit').click();
  }
  /** Picks an item type of purchase line `k` by its label. */
  async chooseItemType(k: number, label: string) {
    await this.page.getByTestId(`purchase-item-${k}`).locator('.ant-select').first().click();
    await this.page.locator(`.ant-select-item-option[title="${label}"]`).click();
  }
  /** Picks the payment method of payment `k` by its label. */
  async chooseMethod(k: number, label: string) {
    await this.page.getByTestId(`payment-method-${k}`).click();
    await this.page.locator(`.ant-select-item-option[title="${label}"]`).click();
  }
  async fillCard(k: number, card: { number: string; expiry: string; cvv: string }) {
    await this.page.getByTestId(`card-number-${k}`).fill(card.number);
    await this.page.getByTestId(`card-expiry-${k}`).fill(card.expiry);
    await this.page.getByTestId(`card-cvv-${k}`).fill(card.cvv);
  }
  receipt() {
    return this.page.getByTestId('purchase-receipt');
  }
  subscriptionEnd() {
    return this.page.getByTestId('subscription-end');
  }
}
