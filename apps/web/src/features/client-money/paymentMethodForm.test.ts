import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { PaymentMethodInput } from '@venue/domain';
import { paymentMethodBody, paymentMethodField } from './paymentMethodForm';

describe('payment method form', () => {
  it('nests a card under card, empty inputs as empty texts', () => {
    expect(paymentMethodBody('card', 7, { number: '4580000000000000', expiry: '12/30' })).toEqual({
      kind: 'card',
      clientId: 7,
      card: { number: '4580000000000000', expiry: '12/30', cvv: '', ownerId: '', ownerName: '' },
    });
  });

  it('sends a MASAV authorization end as a calendar day and no limit as 0 agorot', () => {
    const body = paymentMethodBody('masav', 7, {
      bankCode: '12',
      branch: '600',
      account: '123456',
      ownerId: '000000018',
      ownerName: 'Dana',
      authExpiry: dayjs('2027-01-31'),
    });
    expect(body).toMatchObject({ kind: 'masav', authExpiry: '2027-01-31', chargeLimit: 0 });
    expect(paymentMethodBody('masav', 7, { chargeLimit: 5000 })).toMatchObject({ authExpiry: null, chargeLimit: 5000 });
  });

  it('builds bodies the PaymentMethodInput schema knows by kind', () => {
    const masav = paymentMethodBody('masav', 7, {
      bankCode: '12',
      branch: '600',
      account: '123456',
      ownerId: '000000018',
      ownerName: 'Dana',
    });
    expect(PaymentMethodInput.safeParse(masav).success).toBe(true);
    expect(PaymentMethodInput.safeParse(paymentMethodBody('card', 7, {})).success).toBe(false);
  });

  it('puts card errors on the flat form fields', () => {
    expect(paymentMethodField(['card', 'number'])).toEqual(['number']);
    expect(paymentMethodField(['bankCode'])).toEqual(['bankCode']);
  });
});
