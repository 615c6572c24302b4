/**
 * Natural batching ("group commit") for the gate's hot path (docs/gate-benchmark.md).
 *
 * Items queue up; a batch is sent after the current turn of the event loop as soon as
 * fewer than `maxInFlight` batches are running, so an idle server sends every item
 * alone at once (no added latency beyond one turn) and a
 * busy one sends what arrived while the previous batches were in the database as one
 * statement. Each database round trip costs a socket write and a wake-up of the
 * PostgreSQL backend, which on this 2-core VM is most of a decision's CPU; a batch
 * pays them once for all its items.
 *
 * `run(items)` must return one result per item, in order; a result that is an
 * `Error` rejects that item only. A thrown error rejects the whole batch.
 */
export class Batcher<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Batches sent and items in them since start (mean batch size = items ÷ batches; bench/gate.bench.mjs). */
  readonly stats = { batches: 0, items: 0 };

  constructor(
    private readonly run: (items: I[]) => Promise<(O | Error)[]>,
    private readonly maxInFlight: number,
    private readonly maxBatch = 256,
  ) {}

  /** Queues one item; resolves with its result. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Sent after this turn of the event loop: the messages that arrived together (all the
      // sockets' reads of one poll) go out together. PGlite runs each statement on this thread,
      // so without the wait every one would leave alone.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      this.stats.batches++;
      this.stats.items += batch.length;
      this.run(batch.map((b) => b.item))
        .then(
          (results) =>
            batch.forEach((b, i) => {
              const r = results[i];
              if (r instanceof Error) b.reject(r);
              else b.resolve(r as O);
            }),
          (err: unknown) => batch.forEach((b) => b.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}

/**
 * Runs `fn` for one key at a time, in arrival order (a per-key queue in this
 * process). The gate uses it so that the same identification presented twice in
 * quick succession is decided against the first one's log row (rapid re-entry,
 * entries per day) even when both arrive in one batch.
 */
export class KeyedSerializer {
  private tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key);
    const current = (prev ? prev.then(fn, fn) : fn()) as Promise<T>;
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
