import type { Db } from '../db/index.js';
import { lastContactWriter } from '../modules/terminals/link.service.js';
import type { TerminalLinkSession } from './terminal-session.js';

/** Longest a graceful stop waits for the terminal links to end and write their last state (ms). */
export const LINKS_DRAIN_MS = 5_000;

/**
 * The terminal links (sockets) of one server instance, authenticated or not,
 * and their graceful end (docs/operations.md "Shutdown", issue 33 finding 6).
 * Before, a stop closed the sockets without waiting: what each link writes
 * when it closes (its last contact, the instance released) ran after the
 * pool had ended ("Cannot use a pool after calling end"), so the console of
 * another instance showed the terminals connected for minutes.
 */
export class TerminalLinks {
  private readonly sessions = new Set<TerminalLinkSession>();
  /** Set once the instance stops: a new terminal socket is closed at once with 1001. */
  draining = false;

  constructor(private readonly db: Db) {}

  /** Tracks a new link until its socket has closed and its work is done. */
  add(session: TerminalLinkSession): void {
    this.sessions.add(session);
    void session.settled().then(() => this.sessions.delete(session));
  }

  /** Links open or still finishing. */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Ends every link: each sends the decisions it is making, closes with 1001 "going away" (the
   * terminal moves to its next server address at once) and writes its last contact and releases
   * its instance; then the last contacts noted meanwhile are written. Waits at most `limitMs`.
   * Call before the pool closes. Resolves with the links ended and whether all finished in time.
   */
  async drain(limitMs = LINKS_DRAIN_MS): Promise<{ links: number; settled: boolean }> {
    this.draining = true;
    const all = [...this.sessions];
    let timer: NodeJS.Timeout | undefined;
    const done = Promise.all(all.map((s) => s.goAway().then(() => s.settled()))).then(() => true);
    const settled = await Promise.race([
      done,
      new Promise<false>((r) => (timer = setTimeout(() => r(false), limitMs))),
    ]);
    clearTimeout(timer);
    await lastContactWriter(this.db)
      .flush()
      .catch(() => undefined);
    return { links: all.length, settled };
  }
}
