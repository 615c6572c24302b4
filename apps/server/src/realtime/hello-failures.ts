/**
 * Failed terminal hellos per source address (issue 33 finding 6; docs/scaling.md "Bad hellos").
 *
 * A hello that fails — unknown serial or wrong secret (4401), another
 * protocol version (4400), no hello within its time (4408) — costs the server
 * a WebSocket upgrade, a database read and a keyed hash. A source that keeps
 * failing (a misconfigured gate in a tight loop, a scan, a flood) would take
 * that time from the connected gates' decisions. Each source address has a
 * token bucket of `burst` failures, refilled at `burst` per `windowMs`: a
 * source whose bucket is empty is refused at the HTTP upgrade with 429 and
 * Retry-After, before any WebSocket, database or hashing work, until a token
 * is back.
 *
 * Only failures spend tokens: a site whose twenty gates share one NAT address
 * and reconnect at once is never refused for its good hellos, and one gate
 * with a wrong secret retrying on its back-off (a few times a minute) never
 * empties the bucket. The source is Fastify's `request.ip` (the socket's
 * address, or the forwarded one when TRUST_PROXY names the balancer).
 *
 * Limits from the environment: TERMINAL_HELLO_FAILURES (tokens, default 20)
 * and TERMINAL_HELLO_FAILURE_WINDOW_MS (time to refill them all, default
 * 60,000 ms). At most `maxSources` (10,000) addresses are remembered; past
 * that, full buckets are forgotten first, then the oldest.
 */
export class HelloFailures {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** Upgrades refused because their source had no token left, since start (for the benchmark and logs). */
  refused = 0;

  constructor(
    readonly burst = Number(process.env.TERMINAL_HELLO_FAILURES ?? 20),
    readonly windowMs = Number(process.env.TERMINAL_HELLO_FAILURE_WINDOW_MS ?? 60_000),
    private readonly now: () => number = () => performance.now(),
    readonly maxSources = 10_000,
  ) {}

  /** Tokens of `source` now (refilled since its last failure), `burst` for a source never seen. */
  private tokens(source: string): number {
    const b = this.buckets.get(source);
    if (!b) return this.burst;
    return Math.min(this.burst, b.tokens + ((this.now() - b.at) * this.burst) / this.windowMs);
  }

  /**
   * Whether a new hello from `source` is refused now; when it is, the seconds
   * until a token is back (for Retry-After, at least 1), else 0.
   */
  retryAfter(source: string): number {
    const t = this.tokens(source);
    if (t >= 1) return 0;
    this.refused++;
    return Math.max(1, Math.ceil(((1 - t) * this.windowMs) / this.burst / 1000));
  }

  /** Spends one token of `source` for a failed hello. */
  failed(source: string): void {
    const tokens = Math.max(0, this.tokens(source) - 1);
    this.buckets.delete(source); // re-inserted last: the map stays in order of last failure
    this.buckets.set(source, { tokens, at: this.now() });
    if (this.buckets.size > this.maxSources) this.forget();
  }

  /** Forgets every source whose bucket is full again; if none, the one that failed longest ago. */
  private forget(): void {
    for (const source of this.buckets.keys()) if (this.tokens(source) >= this.burst) this.buckets.delete(source);
    if (this.buckets.size > this.maxSources) this.buckets.delete(this.buckets.keys().next().value!);
  }
}

const perApp = new WeakMap<object, HelloFailures>();

/** The failed-hello buckets of one server instance (keyed like admissionOf, so apps in one process do not share them). */
export function helloFailuresOf(deps: object): HelloFailures {
  let f = perApp.get(deps);
  if (!f) perApp.set(deps, (f = new HelloFailures()));
  return f;
}
