/**
 * Admission control of terminal handshakes (docs/scaling.md "Reconnect
 * storm"): when thousands of terminals reconnect at once after a restart,
 * at most `limit` hellos are verified and opened at a time (each reads the
 * database, registers the link, and may send the club's valid list), and at
 * most `maxWaiting` more wait their turn in arrival order. A hello beyond
 * that is refused at once with WebSocket close code 1013 ("try again later",
 * RFC 6455 §7.4.1 as registered by IANA) and the terminal retries after its
 * jittered back-off (apps/terminal/src/client.ts), so the server spends its
 * time on the connections it admitted and on the gate's decisions instead
 * of on a queue it cannot drain.
 *
 * Limits from the environment: TERMINAL_HELLO_CONCURRENCY (default 32) and
 * TERMINAL_HELLO_QUEUE (default 2000).
 */
export class HandshakeAdmission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Hellos refused because the queue was full, since start (for the benchmark and logs). */
  refused = 0;

  constructor(
    readonly limit = Number(process.env.TERMINAL_HELLO_CONCURRENCY ?? 32),
    readonly maxWaiting = Number(process.env.TERMINAL_HELLO_QUEUE ?? 2000),
  ) {}

  /**
   * Waits for a handshake slot. Resolves with the function that gives the
   * slot back (call it exactly once, when the hello is done or failed), or
   * null at once when `maxWaiting` hellos are already waiting: refuse the
   * connection with 1013.
   */
  async enter(): Promise<(() => void) | null> {
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.maxWaiting) {
      this.refused++;
      return null;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    // The slot was handed over by release() without decrementing `active`.
    return this.releaser();
  }

  /** Hellos being handled now and waiting. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

const byDeps = new WeakMap<object, HandshakeAdmission>();

/** The admission of one server instance (keyed by its link dependencies, so apps built in one process do not share it). */
export function admissionOf(deps: object): HandshakeAdmission {
  let a = byDeps.get(deps);
  if (!a) {
    a = new HandshakeAdmission();
    byDeps.set(deps, a);
  }
  return a;
}
