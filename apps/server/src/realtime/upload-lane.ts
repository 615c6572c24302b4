/**
 * How many offline batches one server instance records at a time, all
 * terminal links together (docs/terminal-protocol.md "Offline uploads"):
 * after a crash fifty terminals upload their backlogs at once, and each batch
 * holds a database connection while it is recorded — unbounded, they took the
 * pool from the gate's live decisions. The others wait their turn in arrival
 * order; each link has at most OFFLINE_UPLOAD_QUEUE batches waiting (the
 * terminal's window keeps it at OFFLINE_UPLOAD_WINDOW), so the wait is bounded
 * by the links, not by what they resend.
 *
 * Limit from the environment: OFFLINE_UPLOAD_CONCURRENCY (default 2).
 */
export class UploadLane {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit = Math.max(1, Number(process.env.OFFLINE_UPLOAD_CONCURRENCY ?? 2) || 2)) {}

  /** Waits for a turn; resolves with the function that ends it (call it once). */
  async enter(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      // The turn passes straight to the next batch (`active` unchanged), else it is freed.
      if (next) next();
      else this.active--;
    };
  }

  /** Batches being recorded and waiting (tests, logs). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
