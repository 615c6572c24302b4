import type { FastifyInstance } from 'fastify';
import { messagesForTerminals } from '../modules/terminal-messages/terminal-messages.service.js';
import { templatesMessage } from '../modules/biometrics/biometrics.service.js';

/**
 * Pushed configuration of the gate decisions (docs/terminal-protocol.md
 * "Pushed configuration"): when a club's terminal messages or biometric
 * templates change, every server instance (the bus fans out over
 * LISTEN/NOTIFY) reads them once and sends them to the club's terminals it
 * holds. A terminal also gets the messages right after its welcome
 * (`gateWelcomeMessages`, realtime/handlers/gate.ts).
 */
export async function gatePushRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, terminals: registry } = app.deps;
  const db = database.db;
  const off = bus.subscribe('gate-push', (e) => {
    const sockets = registry.forClub(e.clubId);
    if (sockets.length === 0) return;
    const read = e.what === 'messages' ? messagesForTerminals(db, e.clubId) : templatesMessage(db, e.clubId, e.changes);
    read.then(
      (m) => {
        if (m.type === 'templates' && m.changes.length === 0) return;
        for (const s of sockets) s.send(m);
      },
      (err) => app.log.error({ err, clubId: e.clubId }, 'gate push failed'),
    );
  });
  app.addHook('onClose', async () => off());
}
