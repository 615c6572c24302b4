import { describe, expect, it } from 'vitest';
import { Batcher, KeyedSerializer } from './batcher.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Batcher', () => {
  it('sends an item alone when idle, and groups what arrives while batches are in flight or in one turn', async () => {
    const sent: number[][] = [];
    const b = new Batcher<number, number>(async (items) => {
      sent.push(items);
      await tick();
      return items.map((x) => x * 10);
    }, 1);
    const first = b.submit(1);
    await new Promise((r) => setImmediate(r)); // 1 is in flight now
    const rest = [2, 3, 4].map((x) => b.submit(x));
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(sent).toEqual([[1], [2, 3, 4]]);
    expect(b.stats).toEqual({ batches: 2, items: 4 });
    // Submitted in one turn of the event loop: one batch.
    await Promise.all([5, 6].map((x) => b.submit(x)));
    expect(sent.at(-1)).toEqual([5, 6]);
  });

  it('rejects only the item whose result is an Error, and the whole batch when run throws', async () => {
    let fail = false;
    const b = new Batcher<number, number>(async (items) => {
      if (fail) throw new Error('connection lost');
      return items.map((x) => (x === 2 ? new Error('two') : x));
    }, 2);
    const r = await Promise.allSettled([1, 2, 3].map((x) => b.submit(x)));
    expect(r.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    fail = true;
    await expect(b.submit(5)).rejects.toThrow('connection lost');
    fail = false;
    expect(await b.submit(6)).toBe(6); // the batcher goes on after a failed batch
  });

  it('keeps at most maxBatch items in one batch', async () => {
    const sizes: number[] = [];
    const b = new Batcher<number, number>(
      async (items) => {
        sizes.push(items.length);
        await tick();
        return items;
      },
      1,
      3,
    );
    const first = b.submit(0);
    await new Promise((r) => setImmediate(r));
    await Promise.all([first, ...Array.from({ length: 7 }, (_, i) => b.submit(i + 1))]);
    expect(sizes).toEqual([1, 3, 3, 1]);
  });
});

describe('KeyedSerializer', () => {
  it('runs one key at a time in arrival order, other keys at once, and goes on after a failure', async () => {
    const s = new KeyedSerializer();
    const log: string[] = [];
    const job =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const r = await Promise.allSettled([s.run('a', job('a1', true)), s.run('a', job('a2')), s.run('b', job('b1'))]);
    expect(r.map((x) => x.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });
});
