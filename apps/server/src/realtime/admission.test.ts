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

describe('admission control: hellos too old for their terminal', () => {
  it('refuses a waiting hello whose turn comes after maxWaitMs, and new hellos while the oldest is that old', async () => {
    let now = 0;
    const adm = new HandshakeAdmission(1, 10, 5000, () => now);
    const r1 = await adm.enter();
    const late = adm.enter();
    now = 1000;
    const onTime = adm.enter();
    now = 5500; // the first waiter has waited 5.5 s, the second 4.5 s
    // While the oldest waiter is too old, a new hello is refused at once instead of joining.
    expect(await adm.enter()).toBeNull();
    r1!();
    expect(await late).toBeNull();
    const r3 = await onTime;
    expect(r3).not.toBeNull();
    expect(adm.refused).toBe(2);
    expect(adm.expired).toBe(1);
    expect(adm.load).toEqual({ active: 1, waiting: 0 });
    r3!();
    expect(adm.load).toEqual({ active: 0, waiting: 0 });
  });

  it('gives the slot back when every waiter is too old', async () => {
    let now = 0;
    const adm = new HandshakeAdmission(1, 10, 100, () => now);
    const r1 = await adm.enter();
    const a = adm.enter();
    const b = adm.enter();
    now = 200;
    r1!();
    expect(await a).toBeNull();
    expect(await b).toBeNull();
    expect(adm.load).toEqual({ active: 0, waiting: 0 });
    expect(await adm.enter()).not.toBeNull();
  });
});
