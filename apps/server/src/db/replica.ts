import type { Pool } from 'pg';
import type { Db } from './handle.js';

/**
 * Reads of reports, exports and the dashboard from a PostgreSQL streaming
 * replica (`DATABASE_REPLICA_URL`, issue 20, docs/scaling.md "Read replica"),
 * with bounded staleness and read-your-writes. This file is the one place
 * that picks the reader: {@link withReader} and {@link readerOf} take a
 * {@link ReadSession} (who reads, and the time of a write the request
 * carries); the HTTP side — reading the session off the request, the cookie,
 * counting writes — is lib/replica-route.ts.
 *
 * **The staleness rule.** About once per `probeMs` (on demand, one probe in
 * flight) the router reads the primary's WAL position `P = pg_current_wal_lsn()`
 * stamped with the time `t` just before it asked, then the replica's replayed
 * position `R = pg_last_wal_replay_lsn()`. Every commit acknowledged before
 * `t` ends at or before `P`, so when `R ≥ P` the replica shows everything
 * committed before `t`: `freshAsOf` is the latest such `t` among the recent
 * samples. A read goes to the replica only when
 * `now − freshAsOf ≤ maxStalenessMs` (default 30 s) — the report is never
 * older than that — and otherwise to the primary. Unlike
 * `now() − pg_last_xact_replay_timestamp()`, this does not mistake an idle
 * primary for a lagging replica, nor a replica whose WAL receiver stopped for
 * a current one.
 *
 * **Read-your-writes.** A signed-in user's successful request other than
 * GET/HEAD/OPTIONS on a route not marked `readsReplica` is a write: its time
 * is kept in this process (by user) and in a short-lived cookie
 * (lib/replica-route.ts `WROTE_COOKIE`, so another instance sees it too), both for
 * `maxStalenessMs`. That user's reads go to the primary until `freshAsOf`
 * passes the write's time.
 *
 * **Failures.** A replica that is not a standby (`pg_is_in_recovery()` false,
 * e.g. promoted), cannot be reached, or whose probe fails is not used until
 * a probe succeeds; a report or dashboard read that fails on the replica
 * with a connection error or a recovery conflict (SQLSTATE 40001) runs again
 * on the primary. An export streams from the reader chosen at its start.
 */

/** Options of {@link ReadRouter}. */
export interface ReadRouterOptions {
  /** Oldest a replica read may be, in ms (REPLICA_MAX_STALENESS_MS, default 30 000). */
  maxStalenessMs?: number;
  /** Least interval between two probes of the replica's position, in ms (default 1 000). */
  probeMs?: number;
  /** Called with a reason when the replica is found unusable (logged by the app). */
  warn?: (reason: string) => void;
}

/** Where one read went. */
export type ReadSource = 'replica' | 'primary';

/** A pg_lsn ('16/B374D848') as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** SQLSTATEs and errors after which a replica read is retried on the primary. */
const RETRY_ON_PRIMARY = new Set([
  '40001', // canceling statement due to conflict with recovery
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
]);

/** Whether `err` (or an error it wraps, as Drizzle's query errors do) is a trouble of the connection or of recovery. */
export function isReplicaTrouble(err: unknown): boolean {
  for (let e = err as { code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code && RETRY_ON_PRIMARY.has(e.code)) return true;
    if (/Connection terminated|Query read timeout|timeout exceeded when trying to connect/i.test(e.message ?? ''))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Chooses between the primary and the replica for each read (see the rule
 * above). Made by openDatabase when `replicaUrl` is given with a PostgreSQL
 * `databaseUrl`; `database.reads`.
 */
export class ReadRouter {
  readonly maxStalenessMs: number;
  private readonly probeMs: number;
  private readonly warn: (reason: string) => void;
  /** Primary positions sampled, oldest first: `t` ms since the epoch, `lsn` bytes. */
  private samples: { t: number; lsn: bigint }[] = [];
  private lastProbe = 0;
  private probing: Promise<void> | undefined;
  private usable = false;
  private warned = '';
  private readonly writes = new Map<number, number>();
  /** Everything committed on the primary before this instant (ms) is on the replica; 0 = unknown. */
  freshAsOf = 0;
  /** Reads sent to each side (for tests and the benchmark). */
  readonly counts = { replica: 0, primary: 0 };

  constructor(
    private readonly primary: Db,
    private readonly primaryPool: Pool,
    readonly replica: Db,
    private readonly replicaPool: Pool,
    opts: ReadRouterOptions = {},
  ) {
    this.maxStalenessMs = opts.maxStalenessMs ?? 30_000;
    this.probeMs = opts.probeMs ?? 1_000;
    this.warn = opts.warn ?? ((reason) => console.warn(`read replica: ${reason}`));
  }

  /** Samples the primary's position and the replica's replayed position once; updates `freshAsOf`. */
  async probe(): Promise<void> {
    const t = Date.now();
    try {
      const p = await this.primaryPool.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      this.samples.push({ t, lsn: lsnBytes(p.rows[0].lsn) });
      const r = await this.replicaPool.query<{ standby: boolean; lsn: string | null }>(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as lsn',
      );
      const { standby, lsn } = r.rows[0];
      if (!standby || !lsn) {
        this.unusable('DATABASE_REPLICA_URL is not a standby in recovery; reads stay on the primary');
        return;
      }
      const replayed = lsnBytes(lsn);
      let fresh = -1;
      for (let i = 0; i < this.samples.length; i++) if (this.samples[i].lsn <= replayed) fresh = i;
      if (fresh >= 0) {
        this.freshAsOf = Math.max(this.freshAsOf, this.samples[fresh].t);
        this.samples = this.samples.slice(fresh + 1);
      }
      // Samples older than the bound can no longer make the replica usable.
      const oldest = Date.now() - this.maxStalenessMs;
      this.samples = this.samples.filter((s) => s.t >= oldest).slice(-256);
      this.usable = true;
      this.warned = '';
    } catch (err) {
      this.unusable(`probe failed (${(err as Error).message}); reads stay on the primary`);
    }
  }

  private unusable(reason: string): void {
    this.usable = false;
    if (this.warned !== reason) this.warn(reason);
    this.warned = reason;
  }

  /** Probes when the last probe is older than `probeMs` (one probe at a time). */
  private async refresh(): Promise<void> {
    if (Date.now() - this.lastProbe < this.probeMs) return this.probing;
    this.lastProbe = Date.now();
    this.probing = this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Records a write by `userId` at `at` (ms): that user's reads see it. */
  noteWrite(userId: number, at = Date.now()): void {
    this.writes.set(userId, at);
    if (this.writes.size > 10_000) {
      const old = Date.now() - this.maxStalenessMs;
      for (const [u, w] of this.writes) if (w < old) this.writes.delete(u);
    }
  }

  /** The time of the user's last write this process saw (0 when none within the bound). */
  lastWrite(userId: number | undefined): number {
    if (userId === undefined) return 0;
    const w = this.writes.get(userId) ?? 0;
    return w >= Date.now() - this.maxStalenessMs ? w : 0;
  }

  /**
   * The reader for a read that must see every write made before `mustSee`
   * (ms since the epoch; 0 = none): the replica when it is a usable standby,
   * no older than `maxStalenessMs`, and has replayed past `mustSee`;
   * otherwise the primary.
   */
  async choose(mustSee = 0): Promise<{ db: Db; source: ReadSource }> {
    await this.refresh();
    const ok = this.usable && Date.now() - this.freshAsOf <= this.maxStalenessMs && this.freshAsOf >= mustSee;
    this.counts[ok ? 'replica' : 'primary']++;
    return ok ? { db: this.replica, source: 'replica' } : { db: this.primary, source: 'primary' };
  }

  /** Closes the replica's pool. */
  async close(): Promise<void> {
    await this.replicaPool.end();
  }
}

/**
 * Whose read it is: the signed-in user (this process's record of its writes)
 * and the time (ms since the epoch) of a write the request carries from
 * another instance (0 or absent: none).
 */
export interface ReadSession {
  userId?: number;
  wroteAt?: number;
}

/** The handles a read may go to: the primary, and the router when a replica is configured (a `Database`). */
export interface ReadHandles {
  db: Db;
  reads?: ReadRouter;
}

/** The write time a read must see: this process's record of its user, or the one another instance's request carries. */
function mustSeeOf(router: ReadRouter, session: ReadSession): number {
  const own = router.lastWrite(session.userId);
  const carried = session.wroteAt ?? 0;
  return Math.max(own, Number.isFinite(carried) ? Math.min(carried, Date.now()) : 0);
}

/** The reader of a report, export or dashboard read (the primary when no replica is configured). */
export async function readerOf(database: ReadHandles, session: ReadSession): Promise<{ db: Db; source: ReadSource }> {
  if (!database.reads) return { db: database.db, source: 'primary' };
  return database.reads.choose(mustSeeOf(database.reads, session));
}

/**
 * Runs a read of a report or the dashboard on the session's reader; when it
 * fails on the replica with a connection error or a recovery conflict, runs
 * it again on the primary.
 */
export async function withReader<T>(
  database: ReadHandles,
  session: ReadSession,
  work: (db: Db, source: ReadSource) => Promise<T>,
): Promise<T> {
  const { db, source } = await readerOf(database, session);
  if (source === 'primary') return work(db, source);
  try {
    return await work(db, source);
  } catch (err) {
    if (!isReplicaTrouble(err)) throw err;
    database.reads!.counts.primary++;
    return work(database.db, 'primary');
  }
}
