import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { handleFrame } from './link-handlers.js';
import { terminalActions } from '../lib/terminal-actions.js';
import { terminalScreens } from '../lib/terminal-screens.js';
import { TerminalLinkSession, type LinkDeps } from './terminal-session.js';
import { UploadLane } from './upload-lane.js';
import { helloFailuresOf } from './hello-failures.js';

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
  const { database, bus, terminals: registry, links } = app.deps;
  const deps: LinkDeps = {
    db: database.db,
    bus,
    registry,
    actions: terminalActions(registry, bus),
    screens: terminalScreens(registry, bus),
    uploads: new UploadLane(),
  };
  const failures = helloFailuresOf(deps);
  // A deleted terminal's link is closed at once, on whichever instance holds it.
  bus.subscribe('terminal-kick', (e) => registry.get(e.terminalId)?.send({ type: 'kicked' }));

  app.get(
    '/api/terminal/ws',
    {
      websocket: true,
      config: { public: true },
      schema: { hide: true },
      // A source that keeps failing its hellos is refused before the upgrade (realtime/hello-failures.ts).
      preValidation: async (req, reply) => {
        const wait = failures.retryAfter(req.ip);
        if (wait === 0) return;
        req.log.warn({ source: req.ip, retryAfterSeconds: wait }, 'terminal hellos refused: too many failed');
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ code: 'TOO_MANY_FAILED_HELLOS', message: 'Too many failed terminal hellos from this address' });
      },
    },
    (socket: WebSocket, req) => {
      // A stopping instance sends a terminal on to its next address at once.
      if (links.draining) return socket.close(1001, 'server stopping');
      const session = new TerminalLinkSession(socket, deps, req.log, () => failures.failed(req.ip));
      links.add(session);
      socket.on('message', (data, isBinary) => {
        const arrived = performance.now();
        const raw = isBinary ? '' : data.toString();
        session.enqueue(() => handleFrame(session, raw, arrived));
      });
    },
  );
}
