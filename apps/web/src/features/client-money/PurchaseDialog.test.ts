import { describe, expect, it } from 'vitest';
import { PaymentMethod, PurchaseItemType } from '@venue/domain';
import { purchaseLines, type ItemRow, type PayRow } from './PurchaseDialog';

const card = { number: '4580000000000000', expiry: '12/30', cvv: '123' };

describe('purchaseLines', () => {
  it('gives a new subscription its period and dates, other items none', () => {
    const items: ItemRow[] = [
      {
        itemType: PurchaseItemType.NewSubscription,
        name: 'Month',
        quantity: 1,
        unitPrice: 10000,
        period: 'month' as ItemRow['period'],
        start: '2026-01-01',
      },
      {
        itemType: PurchaseItemType.Product,
        name: 'Soap',
        quantity: 2,
        unitPrice: 2350,
        period: 'month' as ItemRow['period'],
      },
    ];
    const { purchaseItems } = purchaseLines(items, []);
    expect(purchaseItems[0]!.subscription).toMatchObject({ period: 'month', start: '2026-01-01', unlimited: false });
    expect(purchaseItems[1]!.subscription).toBeUndefined();
    expect(purchaseItems[1]).toMatchObject({ quantity: 2, unitPrice: 2350 });
  });

  it('sends cash given only for cash, and the card only for a credit card, without owner details', () => {
    const pays: PayRow[] = [
      { method: PaymentMethod.Cash, amount: 5000, cashGiven: 10000, card },
      { method: PaymentMethod.CreditCard, amount: 1700, cashGiven: 300, card },
    ];
    const { payments } = purchaseLines([], pays);
    expect(payments[0]).toMatchObject({ amount: 5000, cashGiven: 10000, card: undefined, keepExcess: false });
    expect(payments[1]).toMatchObject({ cashGiven: undefined, card: { ...card, ownerId: '', ownerName: '' } });
  });
});
