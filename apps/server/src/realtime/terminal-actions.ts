import { randomUUID } from 'node:crypto';
import type { ServerAction, TerminalActionName } from '@venue/domain';
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
      if (socket) socket.send(actionMessage(e.requestId, e.actionName as TerminalActionName, e.data));
    });
    bus.subscribe('terminal-action-reply', (r) => {
      const fn = this.waiting.get(r.requestId);
      if (fn) fn(r);
    });
  }

  /** Sends an action; returns its request id. Does not wait for the terminal. */
  send(terminalId: number, actionName: TerminalActionName, data?: unknown): string {
    const requestId = randomUUID();
    const socket = this.registry.get(terminalId);
    if (socket) socket.send(actionMessage(requestId, actionName, data));
    else this.bus.publish('terminal-action', { terminalId, requestId, actionName, data });
    return requestId;
  }

  /**
   * Sends an action and waits for the terminal's reply.
   * @returns the reply, or null when none came within `timeoutMs`
   */
  async sendAndWait(
    terminalId: number,
    actionName: TerminalActionName,
    data: unknown,
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
    const socket = this.registry.get(terminalId);
    if (socket) socket.send(actionMessage(requestId, actionName, data));
    else this.bus.publish('terminal-action', { terminalId, requestId, actionName, data });
    const r = await reply;
    return r ? { ...r, ms: Math.round(performance.now() - started) } : null;
  }

  /** A terminal on this instance answered an action: hand the reply to whichever instance waits for it. */
  reply(r: Reply): void {
    const local = this.waiting.get(r.requestId);
    if (local) local(r);
    else this.bus.publish('terminal-action-reply', r);
  }
}

function actionMessage(requestId: string, actionName: TerminalActionName, data: unknown): ServerAction {
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
