import { randomUUID } from 'node:crypto';
import type { ServerAction, TerminalAction } from '@venue/domain';
import type { EventBus, LiveEvents } from './event-bus.js';
import type { TerminalRegistry } from './terminal-registry.js';

type Reply = LiveEvents['terminal-action-reply'];

/**
 * Remote actions to terminals (DESIGN §8; docs/terminal-protocol.md "action").
 * An action for a terminal whose link is on this instance goes straight to
 * its socket; otherwise it is published on the bus, and on PostgreSQL the
 * instance that holds the link (LISTEN/NOTIFY) delivers it. The terminal's
 * `action-reply` travels back the same way, so TerminalActionWithReply works
 * whichever instance the terminal is connected to.
 */
export class TerminalActions {
  private readonly waiting = new Map<string, (r: Reply) => void>();

  constructor(
    private readonly registry: TerminalRegistry,
    private readonly bus: EventBus,
  ) {
    bus.subscribe('terminal-action', (e) => {
      const socket = registry.get(e.terminalId);
      // Published by `send` on another instance, from an action validated there.
      if (socket) socket.send(actionMessage(e.requestId, { actionName: e.actionName, data: e.data } as TerminalAction));
    });
    bus.subscribe('terminal-action-reply', (r) => {
      const fn = this.waiting.get(r.requestId);
      if (fn) fn(r);
    });
  }

  /** Sends an action (validated by TerminalAction); returns its request id. Does not wait for the terminal. */
  send(terminalId: number, action: TerminalAction): string {
    const requestId = randomUUID();
    this.deliver(terminalId, requestId, action);
    return requestId;
  }

  /**
   * Sends an action and waits for the terminal's reply.
   * @returns the reply with the milliseconds it took, or null when none came within `timeoutMs`
   */
  async sendAndWait(
    terminalId: number,
    action: TerminalAction,
    timeoutMs: number,
  ): Promise<(Reply & { ms: number }) | null> {
    const requestId = randomUUID();
    const started = performance.now();
    const reply = new Promise<Reply | null>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(requestId);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(requestId, (r) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(r);
      });
    });
    this.deliver(terminalId, requestId, action);
    const r = await reply;
    return r ? { ...r, ms: Math.round(performance.now() - started) } : null;
  }

  /** To the terminal's socket when it is on this instance, else over the bus to the instance holding it. */
  private deliver(terminalId: number, requestId: string, action: TerminalAction): void {
    const socket = this.registry.get(terminalId);
    if (socket) socket.send(actionMessage(requestId, action));
    else
      this.bus.publish('terminal-action', { terminalId, requestId, actionName: action.actionName, data: action.data });
  }

  /** A terminal on this instance answered an action: hand the reply to whichever instance waits for it. */
  reply(r: Reply): void {
    const local = this.waiting.get(r.requestId);
    if (local) local(r);
    else this.bus.publish('terminal-action-reply', r);
  }
}

/** The protocol's `action` message of an action (no `data` key when it has none). */
function actionMessage(requestId: string, { actionName, data }: TerminalAction): ServerAction {
  return { type: 'action', requestId, actionName, ...(data !== undefined ? { data } : {}) };
}

const hubs = new WeakMap<EventBus, TerminalActions>();
/** The action hub of an app (one per bus and registry). */
export function terminalActions(registry: TerminalRegistry, bus: EventBus): TerminalActions {
  let hub = hubs.get(bus);
  if (!hub) {
    hub = new TerminalActions(registry, bus);
    hubs.set(bus, hub);
  }
  return hub;
}
