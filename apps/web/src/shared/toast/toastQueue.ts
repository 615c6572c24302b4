/**
 * The console's notification toasts (seed 001 "Notification toasts"), as
 * plain logic without React so that the lifecycle can be unit tested:
 *
 * - a toast has a title, a message, a type and its config; it is inactive
 *   (queued), active (shown) or removed;
 * - it is removed on timeout, on a tap or on its close button;
 * - hovering suspends the timeout; leaving starts the extended timeout;
 * - when a maximum of open toasts is set, further toasts wait in a queue
 *   (first in, first out) and open as others close;
 * - defaults: timeout 5000 ms, extended timeout 1000 ms, animation 300 ms,
 *   top-right, newest on top, maximum open 0 (unlimited), progress bar off.
 */

export type ToastType = 'success' | 'error' | 'info' | 'warning';

/** How toasts behave (seed 001 "Notification toasts", defaults in TOAST_DEFAULTS). Times in milliseconds. */
export interface ToastConfig {
  /** Shown this long before it closes by itself; 0 keeps it until closed. */
  timeout: number;
  /** After the pointer leaves a hovered toast, it closes this long after. */
  extendedTimeout: number;
  /** Most toasts open at once; 0 = unlimited. Further ones wait in a queue. */
  maxOpened: number;
  /** The newest toast is shown first (at the top). */
  newestOnTop: boolean;
  /** A bar shows the time left. */
  progressBar: boolean;
  /** Length of the opening animation. */
  animationMs: number;
  /** A tap (click) on the toast closes it. */
  tapToDismiss: boolean;
}

/** Seed 001 "Notification toasts" defaults. */
export const TOAST_DEFAULTS: ToastConfig = {
  timeout: 5000,
  extendedTimeout: 1000,
  maxOpened: 0,
  newestOnTop: true,
  progressBar: false,
  animationMs: 300,
  tapToDismiss: true,
};

/** What a screen asks to show. */
export interface ToastInput {
  type: ToastType;
  title?: string;
  message: string;
  /** Overrides of the queue's config for this toast (its timeouts, progress bar). */
  config?: Partial<Pick<ToastConfig, 'timeout' | 'extendedTimeout' | 'progressBar'>>;
}

/** One toast as the host renders it. */
export interface Toast extends Required<Pick<ToastInput, 'type' | 'message'>> {
  id: number;
  title?: string;
  state: 'inactive' | 'active' | 'removed';
  config: Pick<ToastConfig, 'timeout' | 'extendedTimeout' | 'progressBar'>;
  /** When the running countdown ends (epoch ms), or null while hovered, queued or without timeout. */
  closesAt: number | null;
  /** Length of the running countdown (ms), for the progress bar. */
  countdown: number;
}

/** Timers, injectable for tests (defaults to the global ones). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** The toasts of the console: open, queued, their timers. Listeners hear every change. */
export class ToastQueue {
  readonly config: ToastConfig;
  private readonly clock: Clock;
  private seq = 0;
  /** Active toasts in the order they opened. */
  private open: Toast[] = [];
  /** Inactive toasts waiting for a place (FIFO). */
  private waiting: Toast[] = [];
  private readonly timers = new Map<number, unknown>();
  private readonly listeners = new Set<() => void>();

  constructor(config: Partial<ToastConfig> = {}, clock: Clock = realClock) {
    this.config = { ...TOAST_DEFAULTS, ...config };
    this.clock = clock;
  }

  /** Shows a toast, or queues it when the maximum is open; returns its id. */
  show(input: ToastInput): number {
    const { timeout, extendedTimeout, progressBar } = this.config;
    const toast: Toast = {
      id: ++this.seq,
      type: input.type,
      message: input.message,
      ...(input.title ? { title: input.title } : {}),
      state: 'inactive',
      config: { timeout, extendedTimeout, progressBar, ...input.config },
      closesAt: null,
      countdown: 0,
    };
    if (this.hasRoom()) this.activate(toast);
    else this.waiting.push(toast);
    this.emit();
    return toast.id;
  }

  /** The pointer is over a toast: its timeout is suspended. */
  hover(id: number): void {
    const t = this.find(id);
    if (!t) return;
    this.stopTimer(id);
    t.closesAt = null;
    this.emit();
  }

  /** The pointer left a toast: it closes after the extended timeout. */
  leave(id: number): void {
    const t = this.find(id);
    if (!t) return;
    this.startTimer(t, t.config.extendedTimeout);
    this.emit();
  }

  /** A tap on the toast: closes it when taps dismiss (the default). */
  tap(id: number): void {
    if (this.config.tapToDismiss) this.close(id);
  }

  /** Removes a toast (its close button, a tap, or its timeout) and opens the next queued one. */
  close(id: number): void {
    this.stopTimer(id);
    const t = this.find(id);
    if (t) {
      t.state = 'removed';
      this.open = this.open.filter((x) => x.id !== id);
    } else {
      this.waiting = this.waiting.filter((x) => x.id !== id);
    }
    while (this.waiting.length > 0 && this.hasRoom()) this.activate(this.waiting.shift()!);
    this.emit();
  }

  /** Removes every toast, open or queued. */
  clear(): void {
    for (const id of this.timers.keys()) this.stopTimer(id);
    this.open = [];
    this.waiting = [];
    this.emit();
  }

  /** Open toasts in display order (newest first when `newestOnTop`). */
  active(): Toast[] {
    return this.config.newestOnTop ? [...this.open].reverse() : [...this.open];
  }

  /** Queued (inactive) toasts, first to open first. */
  queued(): Toast[] {
    return [...this.waiting];
  }

  /** Calls `fn` after every change; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private hasRoom(): boolean {
    return this.config.maxOpened <= 0 || this.open.length < this.config.maxOpened;
  }

  private find(id: number): Toast | undefined {
    return this.open.find((t) => t.id === id);
  }

  private activate(t: Toast): void {
    t.state = 'active';
    this.open.push(t);
    this.startTimer(t, t.config.timeout);
  }

  private startTimer(t: Toast, ms: number): void {
    this.stopTimer(t.id);
    if (ms <= 0) {
      t.closesAt = null;
      return;
    }
    t.countdown = ms;
    t.closesAt = this.clock.now() + ms;
    this.timers.set(
      t.id,
      this.clock.setTimeout(() => this.close(t.id), ms),
    );
  }

  private stopTimer(id: number): void {
    const h = this.timers.get(id);
    if (h !== undefined) this.clock.clearTimeout(h);
    this.timers.delete(id);
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
