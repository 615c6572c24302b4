import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { handleFrame } from './link-handlers.js';
import { terminalActions } from '../lib/terminal-actions.js';
import { terminalScreens } from '../lib/terminal-screens.js';
import { TerminalLinkSession, type LinkDeps } from './terminal-session.js';

/**
 * The terminal link (DESIGN §8, docs/terminal-protocol.md): one WebSocket per
 * terminal at GET /api/terminal/ws. The route is public to the bearer-token
 * hook because a terminal authenticates in its first message (serial and
 * secret, checked against terminals.secret_hash). Each socket is a
 * TerminalLinkSession (realtime/terminal-session.ts: hello timeout, liveness,
 * authenticated state, message order); each message type has its handler in
 * realtime/link-handlers.ts; what the link reads and writes of the terminal's
 * row is in modules/terminals/link.service.ts.
 */
export async function terminalLinkRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, terminals: registry } = app.deps;
  const deps: LinkDeps = {
    db: database.db,
    bus,
    registry,
    actions: terminalActions(registry, bus),
    screens: terminalScreens(registry, bus),
  };
  // A deleted terminal's link is closed at once, on whichever instance holds it.
  bus.subscribe('terminal-kick', (e) => registry.get(e.terminalId)?.send({ type: 'kicked' }));

  app.get(
    '/api/terminal/ws',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    (socket: WebSocket, req) => {
      const session = new TerminalLinkSession(socket, deps, req.log);
      socket.on('message', (data, isBinary) => {
        const arrived = performance.now();
        const raw = isBinary ? '' : data.toString();
        session.enqueue(() => handleFrame(session, raw, arrived));
      });
    },
  );
}
