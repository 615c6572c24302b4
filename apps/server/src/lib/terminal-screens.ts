import type { TerminalScreen } from '@venue/domain';
import type { EventBus, ScreenRecord } from './event-bus.js';
import type { TerminalRegistry, TerminalSocket } from './terminal-registry.js';

/**
 * Remote view (seed 001 §2; docs/terminal-protocol.md "Remote view"): the
 * latest screen of every terminal. A terminal reports its screen (`screen`
 * message) to the instance holding its link; that instance publishes it on
 * the bus, so every instance — on PostgreSQL through LISTEN/NOTIFY — keeps the
 * latest per terminal and pushes it to the consoles of the club
 * (realtime/live.ts). Nothing is written to the database: a screen changes
 * with every entrance, and it is only worth anything while it is current.
 *
 * An instance that started after a terminal's last change (a restart, a new
 * instance) does not know its screen; asked for it (GET
 * /api/Terminal/GetScreen), it publishes `screen-request` and the instance
 * holding the link publishes the screen again.
 */

/** Reports of one link published at most this often; a faster terminal's last report goes out at the end of the wait. */
export const SCREEN_MIN_INTERVAL_MS = 100;

/** Per link: the last `seq` accepted and the throttle of its reports. */
interface LinkScreen {
  seq: number;
  lastPublished: number;
  pending?: ScreenRecord;
  timer?: NodeJS.Timeout;
}

export class TerminalScreens {
  private readonly latest = new Map<number, ScreenRecord>();
  private readonly links = new WeakMap<TerminalSocket, LinkScreen>();

  constructor(
    private readonly registry: TerminalRegistry,
    private readonly bus: EventBus,
  ) {
    bus.subscribe('screen', (e) => {
      const cur = this.latest.get(e.terminalId);
      if (!cur || cur.receivedAt <= e.receivedAt) this.latest.set(e.terminalId, e);
    });
    bus.subscribe('screen-request', (e) => {
      if (!this.registry.get(e.terminalId)) return;
      const r = this.latest.get(e.terminalId);
      if (r) this.bus.publish('screen', r);
    });
    bus.subscribe('terminal-kick', (e) => this.latest.delete(e.terminalId));
  }

  /**
   * A `screen` message of the terminal behind `socket` (a link of this instance). A report whose
   * `seq` is not above the last of this link is stale and ignored; reports closer together than
   * SCREEN_MIN_INTERVAL_MS are coalesced (the last one wins).
   */
  report(socket: TerminalSocket, m: TerminalScreen, now = new Date()): void {
    let link = this.links.get(socket);
    if (!link) this.links.set(socket, (link = { seq: -1, lastPublished: 0 }));
    if (m.seq <= link.seq) return;
    link.seq = m.seq;
    const rec: ScreenRecord = {
      clubId: socket.clubId,
      terminalId: socket.terminalId,
      screen: m.screen,
      at: new Date(m.at).toISOString(),
      receivedAt: now.toISOString(),
    };
    const wait = link.lastPublished + SCREEN_MIN_INTERVAL_MS - now.getTime();
    if (wait <= 0 && !link.timer) {
      link.lastPublished = now.getTime();
      this.bus.publish('screen', rec);
      return;
    }
    link.pending = rec;
    const l = link;
    l.timer ??= setTimeout(
      () => {
        l.timer = undefined;
        if (!l.pending) return;
        l.lastPublished = Date.now();
        this.bus.publish('screen', l.pending);
        l.pending = undefined;
      },
      Math.max(wait, 0),
    );
  }

  /**
   * The latest screen of a terminal. When this instance has none and the terminal's link is on
   * another instance (`connectedElsewhere`), asks that instance over the bus and waits up to
   * `timeoutMs` for the screen to arrive.
   * @returns the record, or null when no screen is known
   */
  async current(terminalId: number, connectedElsewhere: boolean, timeoutMs: number): Promise<ScreenRecord | null> {
    const known = this.latest.get(terminalId);
    if (known || this.registry.get(terminalId) || !connectedElsewhere) return known ?? null;
    return new Promise((resolve) => {
      const off = this.bus.subscribe('screen', (e) => {
        if (e.terminalId !== terminalId) return;
        clearTimeout(timer);
        off();
        resolve(e);
      });
      const timer = setTimeout(() => {
        off();
        resolve(null);
      }, timeoutMs);
      this.bus.publish('screen-request', { terminalId });
    });
  }
}

const hubs = new WeakMap<EventBus, TerminalScreens>();
/** The screen store of an app (one per bus and registry). */
export function terminalScreens(registry: TerminalRegistry, bus: EventBus): TerminalScreens {
  let hub = hubs.get(bus);
  if (!hub) {
    hub = new TerminalScreens(registry, bus);
    hubs.set(bus, hub);
  }
  return hub;
}
