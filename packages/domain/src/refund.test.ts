import { describe, expect, it } from 'vitest';
import { planRefund, splitProportionally, type RefundableLine, type RefundablePayment } from './refund.js';

const line = (key: number, total: number, vat: number, o: Partial<RefundableLine> = {}): RefundableLine => ({
  key,
  itemType: 4,
  quantity: 1,
  total,
  vat,
  refundedTotal: 0,
  refundedVat: 0,
  refundedQuantity: 0,
  ...o,
});
const pay = (id: number, method: number, amount: number, refunded = 0): RefundablePayment => ({
  id,
  method,
  amount,
  lastFour: '',
  refunded,
});

describe('planRefund (the refund rule)', () => {
  it('an amount of a line takes the line’s VAT in proportion; emptying the line takes exactly what is left', () => {
    const lines = [line(1, 6000, 915), line(2, 4000, 610)];
    const a = planRefund(lines, [pay(1, 1, 10000)], { lines: [{ key: 1, amount: 2500 }] });
    if ('refusal' in a) throw new Error();
    expect(a).toMatchObject({ total: 2500, vat: 381, beforeVat: 2119, complete: false });
    const after = [line(1, 6000, 915, { refundedTotal: 2500, refundedVat: 381 }), lines[1]];
    const b = planRefund(after, [pay(1, 1, 10000, 2500)], { lines: [{ key: 1 }] });
    if ('refusal' in b) throw new Error();
    expect(b.lines).toEqual([{ key: 1, itemType: 4, quantity: 1, amount: 3500, vat: 915 - 381, completesLine: true }]);
  });

  it('an amount alone is spread over what is left of the lines; nothing chosen refunds all that is left', () => {
    const lines = [line(1, 3000, 458), line(2, 1000, 153)];
    const a = planRefund(lines, [pay(1, 0, 4000)], { amount: 1000 });
    if ('refusal' in a) throw new Error();
    expect(a.lines.map((l) => l.amount)).toEqual([750, 250]);
    const all = planRefund(lines, [pay(1, 0, 4000)], {});
    if ('refusal' in all) throw new Error();
    expect(all).toMatchObject({ total: 4000, vat: 611, complete: true });
  });

  it('the money goes back to the payments in proportion; the last refund returns what is left of each (rounding)', () => {
    const lines = [line(1, 10003, 1526)];
    const pays = [pay(1, 7, 5000), pay(2, 0, 5000)]; // cash rounded down by 3 agorot
    const a = planRefund(lines, pays, { amount: 3001 });
    if ('refusal' in a) throw new Error();
    expect(a.payments.map((p) => p.amount)).toEqual([1501, 1500]);
    const b = planRefund(
      [line(1, 10003, 1526, { refundedTotal: 3001, refundedVat: 458 })],
      [pay(1, 7, 5000, 1501), pay(2, 0, 5000, 1500)],
      {},
    );
    if ('refusal' in b) throw new Error();
    expect(b.payments.map((p) => p.amount)).toEqual([3499, 3500]);
  });

  it('refuses more than is left, bad amounts, unknown lines and a purchase with nothing left', () => {
    const lines = [line(1, 1000, 153, { refundedTotal: 400, refundedVat: 61 })];
    const pays = [pay(1, 0, 1000, 400)];
    expect(planRefund(lines, pays, { amount: 601 })).toEqual({ refusal: { reason: 'overRefund', refundable: 600 } });
    expect(planRefund(lines, pays, { amount: 0 })).toMatchObject({ refusal: { reason: 'badAmount' } });
    expect(planRefund(lines, pays, { amount: 1.5 })).toMatchObject({ refusal: { reason: 'badAmount' } });
    expect(planRefund(lines, pays, { lines: [{ key: 9 }] })).toMatchObject({
      refusal: { reason: 'unknownLine', key: 9 },
    });
    expect(planRefund([line(1, 1000, 153, { refundedTotal: 1000 })], pays, {})).toMatchObject({
      refusal: { reason: 'refunded' },
    });
  });

  it('splitProportionally: sums exactly, never above a weight', () => {
    expect(splitProportionally(10, [10, 10, 10])).toEqual([4, 3, 3]);
    expect(splitProportionally(10, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(splitProportionally(5, [2, 0, 100])).toEqual([0, 0, 5]);
    expect(splitProportionally(200, [50, 50])).toEqual([50, 50]);
  });
});
