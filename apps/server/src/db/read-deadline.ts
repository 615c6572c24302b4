/**
 * A client-side read limit for many short statements without a timer per
 * statement: each statement in flight is noted with its deadline, and one
 * sweep every `sweepMs` (only while something is in flight) fails those past
 * it with node-postgres's own message, "Query read timeout", which
 * lib/error-handler.ts `isDatabaseUnavailable` recognises (a partition: the
 * answer never comes back and the server-side `statement_timeout` cannot
 * reach us; docs/operations.md "Database outage").
 *
 * Why not node-postgres's `query_timeout` on the gate's pool: with it, the
 * rows of every statement outlived the young generation's collections and
 * were promoted to the old one — replaying the gate's read at 2,000/s in one
 * process, 24 MB per 10 s with it and none without (docs/scaling.md "The
 * gate's tail at 5 000 links": promotion is what brings the major
 * collections that make the gate's p99). Here nothing a statement returns is
 * referenced from the note: it holds the deadline and the function that
 * fails the caller, and is dropped when the statement settles.
 */
export class ReadDeadlines {
  private readonly inFlight = new Map<number, { until: number; fail: (e: Error) => void }>();
  private seq = 0;
  private sweeper?: NodeJS.Timeout;

  /**
   * @param limitMs how long a statement may take before its caller gets the error (ms)
   * @param sweepMs how often statements in flight are checked (ms); a late answer fails within limitMs + sweepMs
   */
  constructor(
    private readonly limitMs: number,
    private readonly sweepMs = 250,
  ) {}

  /** Statements in flight now (tests). */
  get size(): number {
    return this.inFlight.size;
  }

  /**
   * Settles with `statement`, or rejects with Error('Query read timeout') once it has taken longer
   * than the limit (the statement itself is left to the server's `statement_timeout`; a late answer
   * is dropped).
   */
  run<T>(statement: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = ++this.seq;
      this.inFlight.set(id, { until: Date.now() + this.limitMs, fail: reject });
      this.sweeper ??= setInterval(() => this.sweep(), this.sweepMs).unref();
      statement.then(
        (v) => {
          if (this.settle(id)) resolve(v);
        },
        (err: unknown) => {
          if (this.settle(id)) reject(err);
        },
      );
    });
  }

  /** Forgets statement `id`; false when the sweep already failed it. */
  private settle(id: number): boolean {
    const known = this.inFlight.delete(id);
    if (this.inFlight.size === 0) this.stop();
    return known;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.inFlight) {
      if (s.until > now) continue;
      this.inFlight.delete(id);
      s.fail(new Error('Query read timeout'));
    }
    if (this.inFlight.size === 0) this.stop();
  }

  private stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
