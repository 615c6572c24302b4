import { describe, expect, it } from 'vitest';
import { ClientFull, PaymentMethod, PurchaseItemType } from '@venue/domain';
import { ApiError } from '../../platform/api/apiClient';
import {
  clientGroup,
  dialogQuote,
  expectedAmount,
  missingPrice,
  priceSources,
  refusedDealerGaps,
  singlePaymentDue,
  subscriptionPreview,
  subscriptionStartPrice,
} from './purchaseQuote';

const feeClub = {
  country: 'Israel' as const,
  creditChargeFeeType: 2,
  creditChargeFeeValue: 250,
  entranceCreditFeeType: 1,
  entranceCreditFeeValue: 300,
};
const at = new Date('2026-11-23T10:00:00Z');
const load = [{ itemType: PurchaseItemType.ChargingMoney, quantity: 1, unitPrice: 10000 }];

describe('the purchase dialog prices with the one domain rule (issue 18)', () => {
  it('bug 1: a ₪100 card load in a club with a 2.5% card fee asks ₪102.50 of the card, ₪100 in cash', () => {
    expect(singlePaymentDue(load, PaymentMethod.CreditCard, feeClub, at)).toBe(10250);
    expect(singlePaymentDue(load, PaymentMethod.CreditCardToken, feeClub, at)).toBe(10250);
    expect(singlePaymentDue(load, PaymentMethod.Cash, feeClub, at)).toBe(10000);
    const q = dialogQuote(load, [{ method: PaymentMethod.CreditCard, amount: 10250 }], feeClub, at);
    expect(q).toMatchObject({ subtotal: 10000, fee: 250, total: 10250, vatRateBp: 1800, vat: 1564 });
  });

  it('shows VAT by the club country and date, and rounds only a cash total to 10 agorot', () => {
    const towel = [{ itemType: PurchaseItemType.Towel, quantity: 1, unitPrice: 1004 }];
    const uk = { ...feeClub, country: 'UK' as const };
    expect(dialogQuote(towel, [], uk, at).vatRateBp).toBe(2000);
    expect(dialogQuote(towel, [], feeClub, new Date('2024-06-01T10:00:00Z')).vatRateBp).toBe(1700);
    const usa = { ...feeClub, country: 'USA' as const };
    expect(dialogQuote(towel, [], usa, at).vatRateBp).toBe(0);
    expect(dialogQuote(towel, [], { ...usa, usSalesTaxBp: 825 }, at).vatRateBp).toBe(825);
    expect(singlePaymentDue(towel, PaymentMethod.Cash, feeClub, at)).toBe(1000);
    expect(singlePaymentDue(towel, PaymentMethod.CreditCard, feeClub, at)).toBe(1004);
  });

  it('bug 2: a line without a price, or at 0 without Free, cannot be paid', () => {
    const blank = [{ itemType: PurchaseItemType.NewSubscription, quantity: 1, unitPrice: null }];
    expect(missingPrice(blank, [{ method: PaymentMethod.Cash, amount: 0 }])).toBe(0);
    expect(missingPrice(blank, [{ method: PaymentMethod.Free, amount: 0 }])).toBe(0);
    const zero = [{ ...blank[0], unitPrice: 0 }];
    expect(missingPrice(zero, [{ method: PaymentMethod.Cash, amount: 0 }])).toBe(0);
    expect(missingPrice(zero, [{ method: PaymentMethod.Free, amount: 0 }])).toBe(-1);
    expect(missingPrice(load, [{ method: PaymentMethod.Cash, amount: 10000 }])).toBe(-1);
  });

  it('bug 3: previews a month bought on the 23rd by the group end type', () => {
    const none = { currentEnd: null, daysToExtend: 0 };
    expect(subscriptionPreview('2026-11-23', { ...none, endType: 2 }, 'month')).toEqual({
      start: '2026-11-23',
      end: '2026-11-30',
    });
    expect(subscriptionPreview('2026-11-23', { ...none, endType: 4 }, 'month')).toEqual({
      start: '2026-11-23',
      end: '2026-12-22',
    });
    // A subscription still running continues the day after it ends.
    expect(
      subscriptionPreview('2026-11-23', { currentEnd: '2026-11-30', endType: 4, daysToExtend: 7 }, 'month'),
    ).toEqual({ start: '2026-12-01', end: '2027-01-07' });
  });

  it('takes prices from the group schedule rows and the active products, never a blank 0', () => {
    const group = {
      schedule: [
        { id: 1, price: 3000, displayName: 'Evening', description: '' },
        { id: 2, price: 0, displayName: 'Free hour', description: '' },
      ],
    } as never;
    expect(priceSources(PurchaseItemType.Entrance, group, [])).toEqual([{ value: 's1', name: 'Evening', price: 3000 }]);
    const products = [
      { id: 7, name: 'soap', displayName: 'Soap', price: 1200, active: true },
      { id: 8, name: 'old', displayName: '', price: 900, active: false },
    ];
    expect(priceSources(PurchaseItemType.Product, group, products)).toEqual([
      { value: 'p7', name: 'Soap', price: 1200, itemId: 7 },
    ]);
    expect(priceSources(PurchaseItemType.PayDebt, group, products)).toEqual([]);
    expect(subscriptionStartPrice(25000, 'threeMonths')).toBe(75000);
    expect(subscriptionStartPrice(null, 'month')).toBeNull();
    expect(subscriptionStartPrice(25000, 'week')).toBeNull();
  });

  it("reads the server's expected amount from a PAYMENTS_DO_NOT_MATCH_TOTAL answer", () => {
    const err = new ApiError(400, 'PAYMENTS_DO_NOT_MATCH_TOTAL', 'x', [], { expected: 10250 });
    expect(expectedAmount(err)).toBe(10250);
    expect(expectedAmount(new ApiError(422, 'PRICE_REQUIRED', 'x', [], { path: 'p' }))).toBeNull();
    expect(expectedAmount(new Error('x'))).toBeNull();
  });

  it("offers the client's group's schedule price, the group read from GetClientFull's `client`", () => {
    // The answer of GET /api/GetClientFull/{id} as the server sends it: the client's fields under
    // `client`, the group as a summary without its schedule.
    const full: ClientFull = ClientFull.parse({
      client: {
        id: 41,
        number: 7,
        firstName: 'רות',
        lastName: 'מחיר',
        name: 'רות מחיר',
        personalId: '',
        phone: '',
        city: '',
        address: '',
        groupId: 5,
        groupName: 'ערב',
        clientType: 1,
        cardSerial: '',
        subscriptionStart: null,
        subscriptionEnd: null,
        licenseExpiry: null,
        status: 1,
        messageToClient: '',
        balance: 0,
        createdAt: '2026-11-01T08:00:00.000Z',
        cardType: 0,
        specialPrice: null,
        parentId: null,
        clientCode: '',
        hasEnrollPassword: false,
        allowEnrollFingerprint: true,
        allowEnrollCard: true,
        allowEnrollFace: true,
        tempBalance: 0,
        subscriptionBalance: 0,
        bonusEntries: 0,
        hasFingerprint: false,
        hasFace: false,
        hasPaymentMethod: false,
        debtsTotal: 0,
        childrenCount: 0,
      },
      enrollPassword: null,
      group: { id: 5, name: 'ערב', color: '#888888', entranceState: 1 },
      parent: null,
      children: [],
    });
    const groups = [
      { id: 4, schedule: [{ id: 9, price: 9900, displayName: 'Other group', description: '' }] },
      { id: 5, schedule: [{ id: 11, price: 18000, displayName: 'חודשי', description: '' }] },
    ];
    const group = clientGroup(full, groups);
    expect(group?.id).toBe(5);
    expect(priceSources(PurchaseItemType.NewSubscription, group as never, [])).toEqual([
      { value: 's11', name: 'חודשי', price: 18000 },
    ]);
    // Still loading, or a client without a group: no schedule to offer.
    expect(clientGroup(undefined, groups)).toBeNull();
    expect(clientGroup({ client: { ...full.client, groupId: null } }, groups)).toBeNull();
  });

  it("reads what the club lacks from a DEALER_IDENTITY_MISSING answer (the dealer's identity on tax documents)", () => {
    const err = new ApiError(422, 'DEALER_IDENTITY_MISSING', 'x', [], { fields: ['companyNumber', 'address', 'x'] });
    expect(refusedDealerGaps(err)).toEqual(['companyNumber', 'address']);
    expect(refusedDealerGaps(new ApiError(422, 'PRICE_REQUIRED', 'x', [], { path: 'p' }))).toBeNull();
  });
});
