import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../lib/error-handler.js';
import { ReadDeadlines } from './read-deadline.js';

describe('ReadDeadlines', () => {
  it('passes answers and errors through and forgets settled statements', async () => {
    const d = new ReadDeadlines(1000, 10);
    await expect(d.run(Promise.resolve([{ id: 1 }]))).resolves.toEqual([{ id: 1 }]);
    const wrong = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(d.run(Promise.reject(wrong))).rejects.toBe(wrong);
    expect(d.size).toBe(0);
  });

  it('fails a statement whose answer never comes with the read timeout the outage handling knows', async () => {
    const d = new ReadDeadlines(50, 10);
    const started = Date.now();
    const never = new Promise<never>(() => undefined);
    const err = await d.run(never).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('Query read timeout');
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(45);
    expect(d.size).toBe(0);
  });

  it('drops an answer that comes after the limit, and keeps the others in flight', async () => {
    const d = new ReadDeadlines(40, 10);
    let answerLate!: (v: string) => void;
    const late = d.run(new Promise<string>((r) => (answerLate = r)));
    const onTime = d.run(new Promise<string>((r) => setTimeout(() => r('on time'), 5)));
    await expect(onTime).resolves.toBe('on time');
    await expect(late).rejects.toThrow('Query read timeout');
    answerLate('too late');
    await new Promise((r) => setTimeout(r, 20));
    expect(d.size).toBe(0);
  });
});
