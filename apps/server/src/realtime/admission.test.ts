import { describe, expect, it } from 'vitest';
import { HandshakeAdmission } from './admission.js';

describe('admission control of terminal handshakes', () => {
  it('admits `limit` at once, queues up to `maxWaiting` in arrival order, refuses beyond', async () => {
    const adm = new HandshakeAdmission(2, 2);
    const r1 = await adm.enter();
    const r2 = await adm.enter();
    expect(adm.load).toEqual({ active: 2, waiting: 0 });
    const order: number[] = [];
    const w3 = adm.enter().then((r) => (order.push(3), r));
    const w4 = adm.enter().then((r) => (order.push(4), r));
    expect(adm.load).toEqual({ active: 2, waiting: 2 });
    // The queue is full: refused at once.
    expect(await adm.enter()).toBeNull();
    expect(adm.refused).toBe(1);
    r1!();
    const r3 = await w3;
    expect(order).toEqual([3]);
    r1!(); // a second call of the same release gives nothing back twice
    expect(adm.load).toEqual({ active: 2, waiting: 1 });
    r2!();
    const r4 = await w4;
    expect(order).toEqual([3, 4]);
    r3!();
    r4!();
    expect(adm.load).toEqual({ active: 0, waiting: 0 });
    expect(await adm.enter()).not.toBeNull();
  });
});
