import { existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/**
 * The sandbox card provider's own books (docs/money.md "The sandbox
 * provider"): what it charged and gave back, by idempotency key, kept where
 * a crash of the server cannot take them — as a real provider's are kept on
 * its side. Orphaned charges after a kill are then found by the
 * reconciliation's status query and refunded, instead of "refund failed"
 * for ever (issue 33 finding 5).
 *
 * - `MemoryBooks`: in the process (tests, benches: a provider per test).
 * - `FileBooks`: a journal under the data directory, one line per change,
 *   on disk before the provider answers; the server on PGlite
 *   (one process by nature). Not a table of PGlite's: a refund is asked for
 *   inside the refund's transaction, and PGlite runs one transaction at a
 *   time, so the provider's own write would wait for it for ever.
 * - `TableBooks`: the table `sandbox_clearing_books` through a pool of its
 *   own; the server on PostgreSQL, where several instances share the books
 *   as they would share a real provider.
 */

/** One entry of the books: a charge, or a refund of (part of) one. Amounts in minor units. */
export interface SandboxBook {
  /** The idempotency key the caller sent. */
  key: string;
  kind: 'charge' | 'refund';
  /** A charge: approved, declined, or refunded (all of it given back); a refund: approved. */
  status: 'approved' | 'declined' | 'refunded';
  amount: number;
  /** The provider's reference (`sbx_ch_…`, `sbx_rf_…`; empty for a decline). */
  providerRef: string;
  /** Why a charge was declined. */
  reason?: string;
  /** A charge: given back so far. */
  refunded: number;
  /** A refund: the reference of the charge it gave back. */
  chargeRef?: string;
}

export interface SandboxBooks {
  /** The entry of an idempotency key, if any. */
  byKey(key: string): Promise<SandboxBook | undefined>;
  /** Records a charge once per key; answers the entry kept (the earlier one when the key was seen). */
  recordCharge(book: SandboxBook): Promise<SandboxBook>;
  /**
   * Gives back `amount` of the approved charge `chargeRef` once per `key`, as refund `ref`: answers
   * the refund's entry (the earlier one when the key was seen), or null when the charge is unknown,
   * not approved, or would be given back more than it took.
   */
  refund(chargeRef: string, amount: number, key: string, ref: string): Promise<SandboxBook | null>;
  /** Every entry, charges and refunds (the provider's statement; the fault tests compare it with ours). */
  list(): Promise<SandboxBook[]>;
  close(): Promise<void>;
}

/** Books in the process: forgotten at exit. */
export class MemoryBooks implements SandboxBooks {
  private readonly keys = new Map<string, SandboxBook>();
  private readonly refs = new Map<string, SandboxBook>();

  async byKey(key: string): Promise<SandboxBook | undefined> {
    return this.keys.get(key);
  }
  async recordCharge(book: SandboxBook): Promise<SandboxBook> {
    return this.chargeNow(book);
  }
  async refund(chargeRef: string, amount: number, key: string, ref: string): Promise<SandboxBook | null> {
    return this.refundNow(chargeRef, amount, key, ref);
  }
  async list(): Promise<SandboxBook[]> {
    return [...this.keys.values()].map((b) => ({ ...b }));
  }
  async close(): Promise<void> {}

  /** The entry a charge would be answered with: the earlier one of its key, or null when new. */
  seen(key: string): SandboxBook | undefined {
    return this.keys.get(key);
  }
  chargeNow(book: SandboxBook): SandboxBook {
    const seen = this.keys.get(book.key);
    if (seen) return seen;
    const kept = { ...book };
    this.keys.set(kept.key, kept);
    if (kept.providerRef) this.refs.set(kept.providerRef, kept);
    return kept;
  }
  /** Whether a refund of `amount` of `chargeRef` may be made now (its key not seen yet). */
  refundable(chargeRef: string, amount: number): boolean {
    const c = this.refs.get(chargeRef);
    return !!c && c.kind === 'charge' && c.status === 'approved' && amount > 0 && c.refunded + amount <= c.amount;
  }
  refundNow(chargeRef: string, amount: number, key: string, ref: string): SandboxBook | null {
    const seen = this.keys.get(key);
    if (seen) return seen;
    if (!this.refundable(chargeRef, amount)) return null;
    const c = this.refs.get(chargeRef)!;
    c.refunded += amount;
    if (c.refunded >= c.amount) c.status = 'refunded';
    const book: SandboxBook = {
      key,
      kind: 'refund',
      status: 'approved',
      amount,
      providerRef: ref,
      refunded: 0,
      chargeRef,
    };
    this.keys.set(key, book);
    this.refs.set(ref, book);
    return book;
  }
}

type JournalLine =
  { op: 'charge'; book: SandboxBook } | { op: 'refund'; chargeRef: string; amount: number; key: string; ref: string };

/**
 * Books in a journal file (`<dir>/books.jsonl`): read whole at start, then one line per change,
 * on disk (fdatasync) before the change is answered. Changes that come together share one write
 * and one sync (group commit; the event loop never waits for the disk). A line cut short by a kill
 * (its change was never answered) is dropped at the next start.
 */
export class FileBooks implements SandboxBooks {
  private readonly mem = new MemoryBooks();
  private readonly file: string;
  private handle?: import('node:fs/promises').FileHandle;
  private queue: { line: string; done: (err?: unknown) => void }[] = [];
  private flushing = false;
  /** Keys whose change is written but not yet on disk: their answer waits for it. */
  private readonly syncing = new Map<string, Promise<void>>();

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'books.jsonl');
    if (existsSync(this.file)) {
      const text = readFileSync(this.file, 'utf8');
      const whole = text.lastIndexOf('\n') + 1;
      if (whole < text.length) truncateSync(this.file, Buffer.byteLength(text.slice(0, whole)));
      for (const line of text.slice(0, whole).split('\n')) if (line) this.apply(JSON.parse(line) as JournalLine);
    }
  }

  private apply(l: JournalLine): void {
    if (l.op === 'charge') this.mem.chargeNow(l.book);
    else this.mem.refundNow(l.chargeRef, l.amount, l.key, l.ref);
  }

  /** Applies a change now and resolves once its line is on disk. */
  private write(key: string, l: JournalLine): Promise<void> {
    this.apply(l);
    const done = new Promise<void>((resolve, reject) => {
      this.queue.push({ line: `${JSON.stringify(l)}\n`, done: (err) => (err ? reject(err) : resolve()) });
    });
    this.syncing.set(key, done);
    const forget = () => this.syncing.get(key) === done && this.syncing.delete(key);
    done.then(forget, forget);
    if (!this.flushing) void this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      this.handle ??= await open(this.file, 'a');
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        try {
          await this.handle.write(batch.map((b) => b.line).join(''));
          await this.handle.datasync();
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err);
        }
      }
    } catch (err) {
      for (const b of this.queue.splice(0)) b.done(err);
    } finally {
      this.flushing = false;
    }
  }

  async byKey(key: string): Promise<SandboxBook | undefined> {
    await this.syncing.get(key);
    return this.mem.seen(key);
  }
  async recordCharge(book: SandboxBook): Promise<SandboxBook> {
    if (this.mem.seen(book.key)) return (await this.byKey(book.key))!;
    await this.write(book.key, { op: 'charge', book });
    return this.mem.seen(book.key)!;
  }
  async refund(chargeRef: string, amount: number, key: string, ref: string): Promise<SandboxBook | null> {
    if (this.mem.seen(key)) return (await this.byKey(key))!;
    if (!this.mem.refundable(chargeRef, amount)) return null;
    await this.write(key, { op: 'refund', chargeRef, amount, key, ref });
    return this.mem.seen(key)!;
  }
  async list(): Promise<SandboxBook[]> {
    await Promise.all(this.syncing.values());
    return this.mem.list();
  }
  async close(): Promise<void> {
    while (this.flushing || this.queue.length) await new Promise((r) => setTimeout(r, 5));
    await this.handle?.close();
    this.handle = undefined;
  }
}

interface BookRow {
  idempotency_key: string;
  kind: 'charge' | 'refund';
  status: SandboxBook['status'];
  amount: number;
  provider_ref: string;
  reason: string | null;
  refunded: number;
  charge_ref: string | null;
}

const fromRow = (r: BookRow): SandboxBook => ({
  key: r.idempotency_key,
  kind: r.kind,
  status: r.status,
  amount: r.amount,
  providerRef: r.provider_ref,
  ...(r.reason != null ? { reason: r.reason } : {}),
  refunded: r.refunded,
  ...(r.charge_ref != null ? { chargeRef: r.charge_ref } : {}),
});

/**
 * Books in the table `sandbox_clearing_books` (migration 0038) on PostgreSQL, through a pool of
 * its own (two connections): never a connection the caller's transaction needs. A charge is one
 * insert (the key is the primary key); a refund one transaction under the refund key's lock.
 */
export class TableBooks implements SandboxBooks {
  constructor(private readonly pool: import('pg').Pool) {}

  /** Books on the database at `url`, with a pool of their own. */
  static async open(url: string): Promise<TableBooks> {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
    pool.on('error', () => undefined);
    return new TableBooks(pool);
  }

  async byKey(key: string): Promise<SandboxBook | undefined> {
    const r = await this.pool.query<BookRow>('select * from sandbox_clearing_books where idempotency_key = $1', [key]);
    return r.rows[0] ? fromRow(r.rows[0]) : undefined;
  }

  async recordCharge(b: SandboxBook): Promise<SandboxBook> {
    const r = await this.pool.query<BookRow>(
      `insert into sandbox_clearing_books (idempotency_key, kind, status, amount, provider_ref, reason, refunded)
       values ($1, 'charge', $2, $3, $4, $5, 0) on conflict (idempotency_key) do nothing returning *`,
      [b.key, b.status, b.amount, b.providerRef, b.reason ?? null],
    );
    return r.rows[0] ? fromRow(r.rows[0]) : (await this.byKey(b.key))!;
  }

  async refund(chargeRef: string, amount: number, key: string, ref: string): Promise<SandboxBook | null> {
    const c = await this.pool.connect();
    try {
      await c.query('begin');
      await c.query(`select pg_advisory_xact_lock(hashtextextended('sandbox-refund:' || $1, 0))`, [key]);
      const seen = await c.query<BookRow>('select * from sandbox_clearing_books where idempotency_key = $1', [key]);
      if (seen.rows[0]) {
        await c.query('commit');
        return fromRow(seen.rows[0]);
      }
      const taken = await c.query(
        `update sandbox_clearing_books
           set refunded = refunded + $2, status = case when refunded + $2 >= amount then 'refunded' else status end
         where provider_ref = $1 and kind = 'charge' and status = 'approved' and $2 > 0 and refunded + $2 <= amount`,
        [chargeRef, amount],
      );
      if (!taken.rowCount) {
        await c.query('rollback');
        return null;
      }
      const r = await c.query<BookRow>(
        `insert into sandbox_clearing_books (idempotency_key, kind, status, amount, provider_ref, refunded, charge_ref)
         values ($1, 'refund', 'approved', $2, $3, 0, $4) returning *`,
        [key, amount, ref, chargeRef],
      );
      await c.query('commit');
      return fromRow(r.rows[0]);
    } catch (err) {
      await c.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  async list(): Promise<SandboxBook[]> {
    return (await this.pool.query<BookRow>('select * from sandbox_clearing_books order by created_at')).rows.map(
      fromRow,
    );
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
