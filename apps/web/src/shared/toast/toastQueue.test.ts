import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DEFAULTS, ToastQueue } from './toastQueue';

/** Seed 001 "Notification toasts". */
describe('toast queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const messages = (q: ToastQueue) => q.active().map((t) => t.message);

  it('has the seed’s defaults: 5000 ms, extended 1000 ms, 300 ms animation, newest on top, unlimited, no progress bar', () => {
    expect(TOAST_DEFAULTS).toEqual({
      timeout: 5000,
      extendedTimeout: 1000,
      maxOpened: 0,
      newestOnTop: true,
      progressBar: false,
      animationMs: 300,
      tapToDismiss: true,
    });
  });

  it('closes a toast after its timeout', () => {
    const q = new ToastQueue();
    q.show({ type: 'success', message: 'saved' });
    vi.advanceTimersByTime(4999);
    expect(messages(q)).toEqual(['saved']);
    vi.advanceTimersByTime(1);
    expect(messages(q)).toEqual([]);
  });

  it('shows the newest on top (or at the bottom when configured)', () => {
    const q = new ToastQueue();
    q.show({ type: 'info', message: 'one' });
    q.show({ type: 'info', message: 'two' });
    q.show({ type: 'info', message: 'three' });
    expect(messages(q)).toEqual(['three', 'two', 'one']);
    const bottom = new ToastQueue({ newestOnTop: false });
    bottom.show({ type: 'info', message: 'one' });
    bottom.show({ type: 'info', message: 'two' });
    expect(messages(bottom)).toEqual(['one', 'two']);
  });

  it('queues beyond the maximum open, first in first out, and opens the next as one closes', () => {
    const q = new ToastQueue({ maxOpened: 2 });
    const a = q.show({ type: 'info', message: 'a' });
    q.show({ type: 'info', message: 'b' });
    q.show({ type: 'info', message: 'c' });
    q.show({ type: 'info', message: 'd' });
    expect(messages(q)).toEqual(['b', 'a']);
    expect(q.queued().map((t) => [t.message, t.state])).toEqual([
      ['c', 'inactive'],
      ['d', 'inactive'],
    ]);
    q.close(a);
    expect(messages(q)).toEqual(['c', 'b']);
    expect(q.queued().map((t) => t.message)).toEqual(['d']);
    // A queued toast's timeout starts only when it opens: c and b close 5 s after opening.
    vi.advanceTimersByTime(5000);
    expect(messages(q)).toEqual(['d']);
    vi.advanceTimersByTime(5000);
    expect(messages(q)).toEqual([]);
  });

  it('keeps every toast open when no maximum is set', () => {
    const q = new ToastQueue();
    for (let i = 0; i < 20; i++) q.show({ type: 'info', message: String(i) });
    expect(q.active()).toHaveLength(20);
    expect(q.queued()).toEqual([]);
  });

  it('pauses on hover and closes after the extended timeout once the pointer leaves', () => {
    const q = new ToastQueue();
    const id = q.show({ type: 'warning', message: 'careful' });
    vi.advanceTimersByTime(4000);
    q.hover(id);
    expect(q.active()[0].closesAt).toBeNull();
    vi.advanceTimersByTime(60_000);
    expect(messages(q)).toEqual(['careful']);
    q.leave(id);
    expect(q.active()[0].countdown).toBe(1000);
    vi.advanceTimersByTime(999);
    expect(messages(q)).toEqual(['careful']);
    vi.advanceTimersByTime(1);
    expect(messages(q)).toEqual([]);
  });

  it('closes on a tap and on its close button; a removed toast is marked removed', () => {
    const q = new ToastQueue();
    const a = q.show({ type: 'error', message: 'a' });
    const b = q.show({ type: 'error', message: 'b' });
    const toastA = q.active().find((t) => t.id === a)!;
    q.tap(a);
    expect(toastA.state).toBe('removed');
    q.close(b);
    expect(messages(q)).toEqual([]);
    const noTap = new ToastQueue({ tapToDismiss: false });
    const c = noTap.show({ type: 'info', message: 'c' });
    noTap.tap(c);
    expect(messages(noTap)).toEqual(['c']);
  });

  it('takes a toast’s own timeout (0 keeps it until closed) and tells listeners of each change', () => {
    const q = new ToastQueue();
    const heard = vi.fn();
    q.subscribe(heard);
    q.show({ type: 'info', title: 'Licenses', message: 'low', config: { timeout: 10_000 } });
    q.show({ type: 'info', message: 'sticky', config: { timeout: 0 } });
    vi.advanceTimersByTime(9_999);
    expect(messages(q)).toEqual(['sticky', 'low']);
    vi.advanceTimersByTime(1);
    expect(messages(q)).toEqual(['sticky']);
    expect(q.active()[0].closesAt).toBeNull();
    expect(heard).toHaveBeenCalledTimes(3);
  });
});
