import { EventEmitter } from 'node:events';

/**
 * Live events of one club, pushed to the console's WebSocket (DESIGN §1 "real
 * time"). `entrance` carries an EntranceRow; `terminal` a terminal's
 * connection change. In-process here; issue 3 adds PostgreSQL LISTEN/NOTIFY
 * fan-out across server instances behind the same interface.
 */
export interface LiveEvents {
  entrance: { clubId: number; row: unknown };
  terminal: { clubId: number; terminalId: number; connected: boolean };
}

export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  publish<K extends keyof LiveEvents>(type: K, event: LiveEvents[K]): void {
    this.emitter.emit(type, event);
  }
  subscribe<K extends keyof LiveEvents>(type: K, fn: (e: LiveEvents[K]) => void): () => void {
    this.emitter.on(type, fn);
    return () => this.emitter.off(type, fn);
  }
}
