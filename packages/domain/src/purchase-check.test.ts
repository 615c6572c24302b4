import { describe, expect, it } from 'vitest';
import { FeeType, PaymentMethod, PurchaseItemType } from './enums.js';
import { PAYMENT_METHOD_BEATS, type PaymentInput, type PurchaseItemInput } from './schemas/purchases.js';
import {
  cardFee,
  checkPurchase,
  expiryValid,
  paymentTotals,
  pricePurchase,
  quotePurchase,
  type PurchaseCheckInput,
  type PurchaseRefusal,
} from './purchase-check.js';

const item = (itemType: number, unitPrice: number, extra: Partial<PurchaseItemInput> = {}): PurchaseItemInput =>
  ({ itemType, unitPrice, quantity: 1, name: '', ...extra }) as PurchaseItemInput;
const pay = (method: number, amount: number, extra: Partial<PaymentInput> = {}): PaymentInput =>
  ({ method, amount, keepExcess: false, ...extra }) as PaymentInput;
const card = { number: '4580000000000000', expiry: '12/30', cvv: '123', ownerId: '', ownerName: '' };

const noFees = { creditChargeFeeType: 0, creditChargeFeeValue: 0, entranceCreditFeeType: 0, entranceCreditFeeValue: 0 };

function input(over: Partial<PurchaseCheckInput> = {}): PurchaseCheckInput {
  return {
    items: [item(PurchaseItemType.Towel, 1000)],
    payments: [pay(PaymentMethod.Cash, 1000)],
    isAdminUser: false,
    payer: 'client',
    client: { id: 5, parentId: null },
    group: { allowPurchases: true, minChargeAmount: 0, maxChargeAmount: 0 },
    settings: { ...noFees, minChargeAmount: 0, maxChargeAmount: 0, isKalaSubscriptionEnabled: false },
    products: new Map(),
    stored: null,
    vatRateBp: 1800,
    at: new Date('2026-03-01T10:00:00Z'),
    ...over,
  };
}

function refusal(over: Partial<PurchaseCheckInput>): PurchaseRefusal {
  const out = checkPurchase(input(over));
  if (!('refusal' in out)) throw new Error('expected a refusal');
  return out.refusal;
}

describe('card fee (seed 000 §3 fee types)', () => {
  it('is nothing, a fixed amount in agorot, or basis points of the base rounded to the agora', () => {
    expect(cardFee(10_000, FeeType.NoFee, 500)).toBe(0);
    expect(cardFee(10_000, FeeType.Fixed, 350)).toBe(350);
    expect(cardFee(10_000, FeeType.Percentage, 250)).toBe(250); // 2.5% of ₪100
    expect(cardFee(3_333, FeeType.Percentage, 250)).toBe(83); // 83.325 → 83
    expect(cardFee(0, FeeType.Fixed, 350)).toBe(0);
  });
});

describe('pricePurchase', () => {
  const fees = { ...noFees, creditChargeFeeType: FeeType.Percentage, creditChargeFeeValue: 200 };

  it('adds the credit-charge fee to a money load paid wholly by card', () => {
    const priced = pricePurchase(
      [item(PurchaseItemType.ChargingMoney, 10_000)],
      [pay(PaymentMethod.CreditCard, 10_200)],
      1800,
      fees,
    );
    expect(priced).toMatchObject({ fee: 200, total: 10_200, vat: 1556, amountBeforeVat: 8644, rounding: 0 });
  });

  it('charges no fee when part is paid in cash, and refuses the card amount with the fee', () => {
    const items = [item(PurchaseItemType.ChargingMoney, 10_000)];
    expect(
      pricePurchase(items, [pay(PaymentMethod.Cash, 5000), pay(PaymentMethod.CreditCard, 5000)], 1800, fees),
    ).toMatchObject({ fee: 0, total: 10_000 });
    expect(
      pricePurchase(items, [pay(PaymentMethod.Cash, 5000), pay(PaymentMethod.CreditCard, 5200)], 1800, fees),
    ).toEqual({ error: 'PAYMENTS_DO_NOT_MATCH_TOTAL', expected: 4800 });
  });

  it('rounds the cash due to 10 agorot and reports the rounding', () => {
    const items = [item(PurchaseItemType.Product, 1234)];
    expect(pricePurchase(items, [pay(PaymentMethod.Cash, 1230)], 1800, noFees)).toMatchObject({
      total: 1234,
      rounding: -4,
    });
    expect(pricePurchase(items, [pay(PaymentMethod.Cash, 1234)], 1800, noFees)).toEqual({
      error: 'PAYMENTS_DO_NOT_MATCH_TOTAL',
      expected: 1230,
    });
  });

  it('takes no VAT on what the money balance pays, and shares the VAT over the lines', () => {
    const priced = pricePurchase(
      [item(PurchaseItemType.Product, 5900), item(PurchaseItemType.Towel, 5900)],
      [pay(PAYMENT_METHOD_BEATS, 5900), pay(PaymentMethod.CreditCard, 5900)],
      1800,
      noFees,
    );
    expect(priced).toMatchObject({ total: 11_800, vat: 900, amountBeforeVat: 10_900 });
    if ('error' in priced) throw new Error('priced');
    expect(priced.lines.map((l) => l.amountBeforeVat)).toEqual([5450, 5450]);
  });
});

describe('checkPurchase (seed 000 §3 "Purchase", seed 001 §3)', () => {
  it('passes a matching purchase and names the payer', () => {
    const out = checkPurchase(input());
    expect(out).toMatchObject({ total: 1000, payerId: 5 });
  });

  it('refuses payments that do not match the total, with the expected amount including the card fee', () => {
    const settings = {
      ...input().settings,
      entranceCreditFeeType: FeeType.Fixed,
      entranceCreditFeeValue: 150,
    };
    expect(
      refusal({
        settings,
        items: [item(PurchaseItemType.Entrance, 3000)],
        payments: [pay(PaymentMethod.CreditCard, 3000, { card })],
      }),
    ).toEqual({
      code: 'PAYMENTS_DO_NOT_MATCH_TOTAL',
      message: 'Payments do not match the total',
      details: { expected: 3150 },
    });
  });

  it('takes the product price unless staff set one, and refuses a missing product or too many units', () => {
    const products = new Map([[7, { price: 1500, active: true, name: 'Soap', displayName: '', maxQuantity: 2 }]]);
    const out = checkPurchase(
      input({ products, items: [item(PurchaseItemType.Product, 1, { itemId: 7 })], payments: [pay(0, 1500)] }),
    );
    expect(out).toMatchObject({ total: 1500, items: [{ unitPrice: 1500, name: 'Soap' }] });
    expect(refusal({ products, items: [item(PurchaseItemType.Product, 1, { itemId: 8 })] })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      refusal({ products, items: [item(PurchaseItemType.Product, 1500, { itemId: 7, quantity: 3 })] }).details,
    ).toEqual([{ path: 'purchaseItems.0.quantity', message: 'maxQuantity' }]);
  });

  it('refuses a sale above 0 of an Israeli club without its dealer number and address, not a sale at 0', () => {
    const israel = { country: 'Israel', companyNumber: '', addressCity: 'ירושלים', addressStreet: '' };
    expect(refusal({ settings: { ...input().settings, ...israel } })).toEqual({
      code: 'DEALER_IDENTITY_MISSING',
      message: "A tax document needs the club's companyNumber, address",
      details: { fields: ['companyNumber', 'address'] },
    });
    // The payments are checked first: the cashier corrects the amount before learning about the club.
    expect(
      refusal({ settings: { ...input().settings, ...israel }, payments: [pay(PaymentMethod.Cash, 900)] }).code,
    ).toBe('PAYMENTS_DO_NOT_MATCH_TOTAL');
    const free = checkPurchase(
      input({
        settings: { ...input().settings, ...israel },
        isAdminUser: true,
        items: [item(PurchaseItemType.Towel, 0)],
        payments: [pay(PaymentMethod.Free, 0)],
      }),
    );
    expect('refusal' in free).toBe(false);
    const set = { ...israel, companyNumber: '514123454', addressStreet: 'יפו' };
    expect('refusal' in checkPurchase(input({ settings: { ...input().settings, ...set } }))).toBe(false);
  });

  it('refuses a money load outside the club and group charge limits', () => {
    const r = refusal({
      settings: { ...input().settings, minChargeAmount: 2000, maxChargeAmount: 50_000 },
      group: { allowPurchases: true, minChargeAmount: 5000, maxChargeAmount: 0 },
      items: [item(PurchaseItemType.ChargingMoney, 3000)],
      payments: [pay(PaymentMethod.Cash, 3000)],
    });
    expect(r).toEqual({
      code: 'CHARGE_AMOUNT_OUT_OF_RANGE',
      message: 'Charge amount out of range',
      details: { min: 5000, max: 50_000 },
    });
  });

  it('refuses by the rules in order: parent, group, items, payments, total, stored method', () => {
    expect(refusal({ payer: 'parent' }).details).toEqual([{ path: 'payer', message: 'noParent' }]);
    expect(refusal({ group: { allowPurchases: false, minChargeAmount: 0, maxChargeAmount: 0 } }).code).toBe(
      'PURCHASES_NOT_ALLOWED',
    );
    expect(refusal({ client: null, items: [item(PurchaseItemType.ChargingMoney, 1000)] }).details).toEqual([
      { path: 'purchaseItems.0.itemType', message: 'clientRequired' },
    ]);
    expect(refusal({ payments: [pay(PaymentMethod.Free, 1000)] }).details).toEqual([
      { path: 'payments.0', message: 'freeNotAllowed' },
    ]);
    expect(
      refusal({
        items: [item(PurchaseItemType.ChargingMoney, 1000)],
        payments: [pay(PAYMENT_METHOD_BEATS, 1000)],
      }).details,
    ).toEqual([{ path: 'payments.0', message: 'beatsCannotLoadBeats' }]);
    expect(
      refusal({ payments: [pay(PaymentMethod.CreditCard, 1000, { card: { ...card, expiry: '01/26' } })] }).code,
    ).toBe('INVALID_EXPIRATION_DATE');
    expect(refusal({ payments: [pay(PaymentMethod.Cash, 1000, { cashGiven: 500 })] }).details).toEqual([
      { path: 'payments.0', message: 'cashGivenTooLow' },
    ]);
    expect(refusal({ payments: [pay(PaymentMethod.CreditCardToken, 1000)] })).toEqual({
      code: 'NO_PAYMENT_METHOD',
      message: 'No stored card',
      details: { path: 'payments.0' },
    });
    expect(
      refusal({ payments: [pay(PaymentMethod.Masav, 1000)], stored: { kind: 'masav', chargeLimit: 800 } }),
    ).toMatchObject({ code: 'CHARGE_AMOUNT_OUT_OF_RANGE', details: { max: 800 } });
  });

  it('lets staff give Free and pays from the parent when asked', () => {
    const out = checkPurchase(
      input({ isAdminUser: true, payer: 'parent', client: { id: 5, parentId: 9 }, payments: [pay(6, 1000)] }),
    );
    expect(out).toMatchObject({ payerId: 9, total: 1000, vat: 0 });
  });
});

describe('expiryValid', () => {
  it('accepts the current month and later, refuses past months and bad input', () => {
    const at = new Date('2026-03-15T00:00:00Z');
    expect(expiryValid('03/26', at)).toBe(true);
    expect(expiryValid('02/26', at)).toBe(false);
    expect(expiryValid('13/30', at)).toBe(false);
    expect(expiryValid('3/26', at)).toBe(false);
  });
});

describe('paymentTotals', () => {
  it('sums each kind, and splits cash handed over into change and kept excess', () => {
    expect(
      paymentTotals([
        pay(PaymentMethod.Cash, 1230, { cashGiven: 2000 }),
        pay(PaymentMethod.Cash, 500, { cashGiven: 600, keepExcess: true }),
        pay(PaymentMethod.CreditCardEmv, 1000),
        pay(PaymentMethod.Masav, 300),
        pay(PaymentMethod.Free, 200),
        pay(PAYMENT_METHOD_BEATS, 100),
        pay(PaymentMethod.TempCredit, 50),
      ]),
    ).toEqual({
      paidCash: 1730,
      paidCredit: 1000,
      paidBeats: 100,
      paidTemp: 50,
      paidOther: 500,
      paidMasav: 300,
      excess: 100,
      change: 770,
    });
  });
});

describe('quotePurchase: the one price rule (issue 18)', () => {
  const fees = {
    creditChargeFeeType: 2,
    creditChargeFeeValue: 250,
    entranceCreditFeeType: 1,
    entranceCreditFeeValue: 300,
  };
  const load = [item(PurchaseItemType.ChargingMoney, 10000)];

  it('adds the charge fee (percentage, basis points) only when every payment is by card', () => {
    expect(quotePurchase(load, [pay(PaymentMethod.CreditCard, 0)], 1800, fees)).toMatchObject({
      subtotal: 10000,
      fee: 250,
      total: 10250,
      vat: 1564,
      amountBeforeVat: 8686,
      cashDue: null,
    });
    expect(quotePurchase(load, [pay(PaymentMethod.Cash, 0)], 1800, fees)).toMatchObject({ fee: 0, total: 10000 });
    expect(quotePurchase(load, [], 1800, fees).fee).toBe(0);
  });

  it('adds the entrance fee (fixed agorot) on entrances, none on other items', () => {
    const items = [item(PurchaseItemType.Entrance, 3000), item(PurchaseItemType.Towel, 1000)];
    expect(quotePurchase(items, [pay(PaymentMethod.CreditCardToken, 0)], 1800, fees)).toMatchObject({
      fee: 300,
      total: 4300,
    });
    expect(quotePurchase(items, [pay(PaymentMethod.CreditCard, 0)], 1800, noFees).fee).toBe(0);
  });

  it('rounds only the cash part to 10 agorot and leaves out of VAT what the balances and Free pay', () => {
    const q = quotePurchase(
      [item(PurchaseItemType.Towel, 1004)],
      [pay(PaymentMethod.Cash, 0), pay(PAYMENT_METHOD_BEATS, 500)],
      1800,
      noFees,
    );
    expect(q).toMatchObject({ total: 1004, cashDue: 500, vatBase: 504, vat: 77 });
    expect(quotePurchase([item(PurchaseItemType.Towel, 1005)], [pay(PaymentMethod.Cash, 0)], 0, noFees).cashDue).toBe(
      1010,
    );
  });

  it('agrees with pricePurchase, which the server runs', () => {
    const p = pricePurchase(load, [pay(PaymentMethod.CreditCard, 10250, { card })], 1800, fees);
    const q = quotePurchase(load, [pay(PaymentMethod.CreditCard, 10250)], 1800, fees);
    expect(p).toMatchObject({ fee: q.fee, total: q.total, vat: q.vat, amountBeforeVat: q.amountBeforeVat });
  });

  it('refuses a console line priced 0 unless a payment is Free', () => {
    const zero = {
      items: [item(PurchaseItemType.Towel, 0)],
      payments: [pay(PaymentMethod.Cash, 0)],
      isAdminUser: true,
    };
    expect(refusal({ ...zero, requireExplicitFree: true })).toMatchObject({
      code: 'PRICE_REQUIRED',
      details: { path: 'purchaseItems.0.unitPrice' },
    });
    expect(
      'refusal' in checkPurchase(input({ ...zero, payments: [pay(PaymentMethod.Free, 0)], requireExplicitFree: true })),
    ).toBe(false);
    expect('refusal' in checkPurchase(input(zero))).toBe(false);
  });
});
