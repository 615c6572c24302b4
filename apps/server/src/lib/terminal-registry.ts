/**
 * Which terminals are connected to this server instance right now, and a way
 * to send them a message. The terminal link (realtime/terminal-session.ts)
 * registers and unregisters sockets; services read `isConnected`.
 */
export interface TerminalSocket {
  terminalId: number;
  clubId: number;
  send(message: unknown): void;
  /** Sends a message already serialised (one frame to many terminals: the emergency push). */
  sendRaw?(frame: string): void;
  connectedAt: Date;
}

export class TerminalRegistry {
  private readonly sockets = new Map<number, TerminalSocket>();
  register(s: TerminalSocket): void {
    this.sockets.get(s.terminalId)?.send({ type: 'replaced' });
    this.sockets.set(s.terminalId, s);
  }
  unregister(s: TerminalSocket): void {
    if (this.sockets.get(s.terminalId) === s) this.sockets.delete(s.terminalId);
  }
  isConnected(terminalId: number): boolean {
    return this.sockets.has(terminalId);
  }
  get(terminalId: number): TerminalSocket | undefined {
    return this.sockets.get(terminalId);
  }
  /** The sockets of one club's terminals connected to this instance (pushed configuration). */
  forClub(clubId: number): TerminalSocket[] {
    return [...this.sockets.values()].filter((s) => s.clubId === clubId);
  }
  get size(): number {
    return this.sockets.size;
  }
}
