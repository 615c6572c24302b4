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
 * A hello that has waited longer than `maxWaitMs` is refused the same way
 * when its turn comes, and a new hello is refused at once while the queue's
 * oldest has waited that long: the terminal gives up on its welcome after
 * its own timeout (10 s) and opens a new socket, so serving a hello after
 * that is work for a terminal that is no longer listening — under a storm
 * the queue would then serve only such hellos and nobody would connect.
 * `maxWaitMs` (default 5 s) keeps every admitted hello inside the
 * terminal's timeout with room for the hello's own work.
 *
 * Limits from the environment: TERMINAL_HELLO_CONCURRENCY (default 32),
 * TERMINAL_HELLO_QUEUE (default 2000) and TERMINAL_HELLO_MAX_WAIT_MS
 * (default 5000).
 */
export class HandshakeAdmission {
  private active = 0;
  private readonly waiting: { since: number; resolve: (admitted: boolean) => void }[] = [];
  /** Hellos refused because the queue was full or too old, since start (for the benchmark and logs). */
  refused = 0;
  /** Of `refused`, hellos refused after waiting longer than `maxWaitMs`. */
  expired = 0;

  constructor(
    readonly limit = Number(process.env.TERMINAL_HELLO_CONCURRENCY ?? 32),
    readonly maxWaiting = Number(process.env.TERMINAL_HELLO_QUEUE ?? 2000),
    readonly maxWaitMs = Number(process.env.TERMINAL_HELLO_MAX_WAIT_MS ?? 5000),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Waits for a handshake slot. Resolves with the function that gives the
   * slot back (call it exactly once, when the hello is done or failed), or
   * null — refuse the connection with 1013 — at once when `maxWaiting`
   * hellos are already waiting or the oldest of them has waited
   * `maxWaitMs`, or later when this hello's turn comes after `maxWaitMs`.
   */
  async enter(): Promise<(() => void) | null> {
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    const oldest = this.waiting[0];
    if (this.waiting.length >= this.maxWaiting || (oldest && this.now() - oldest.since > this.maxWaitMs)) {
      this.refused++;
      return null;
    }
    const admitted = await new Promise<boolean>((resolve) => this.waiting.push({ since: this.now(), resolve }));
    // An admitted hello got the slot from release() without decrementing `active`.
    return admitted ? this.releaser() : null;
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
      const now = this.now();
      for (;;) {
        const next = this.waiting.shift();
        if (!next) {
          this.active--;
          return;
        }
        if (now - next.since <= this.maxWaitMs) return next.resolve(true);
        // Too late for its terminal: refused, and the slot goes to the next.
        this.refused++;
        this.expired++;
        next.resolve(false);
      }
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
