import type { FastifyInstance } from 'fastify';
import { messagesForTerminals } from '../modules/terminal-messages/terminal-messages.service.js';
import { templatesMessage } from '../modules/biometrics/biometrics.service.js';
import { invalidateValidList } from '../modules/terminals/offline.service.js';
import { applySafetyEvent } from '../modules/gate/safety.service.js';
import { reloadOccupancy } from '../modules/gate/occupancy.js';
import { safetyMessage } from '@venue/domain';

/**
 * Pushed configuration of the gate decisions (docs/terminal-protocol.md
 * "Pushed configuration"): when a club's terminal messages or biometric
 * templates change, every server instance (the bus fans out over
 * LISTEN/NOTIFY) reads them once and sends them to the club's terminals it
 * holds. A terminal also gets the messages right after its welcome
 * (`gateWelcomeMessages`, realtime/handlers/gate.ts).
 *
 * A changed club location (docs/calendar.md "How a change propagates")
 * drops the club's cached offline valid list on every instance: each
 * terminal's next list tick (VALID_LIST_TTL_MS) reads it again in the new time
 * zone and sends it when it differs. The gate's decisions need nothing: they
 * read the location with the terminal in every decision's statement.
 */
export async function gatePushRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, terminals: registry } = app.deps;
  const db = database.db;
  const off = bus.subscribe('gate-push', (e) => {
    if (e.what === 'location') return invalidateValidList(db, e.clubId);
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
  // The club's emergency (docs/gate-safety.md): the new state is cached for the gate's decisions
  // and sent to every terminal of the club on this instance at once — one frame, serialised once
  // (bench/many-terminals.bench.mjs "open-all"); the offline list is read again with it.
  const offSafety = bus.subscribe('gate-safety', (e) => {
    invalidateValidList(db, e.clubId);
    if (e.state) {
      const msg = safetyMessage(e.state);
      const frame = JSON.stringify(msg);
      for (const s of registry.forClub(e.clubId)) {
        if (s.sendRaw) s.sendRaw(frame);
        else s.send(msg);
      }
    }
    applySafetyEvent(db, e).catch((err: unknown) =>
      app.log.error({ err, clubId: e.clubId }, 'gate safety state failed'),
    );
  });
  // The club's areas changed on some instance: read them again here (docs/gate-safety.md "Occupancy").
  const offAreas = bus.subscribe('gate-areas', (e) => {
    reloadOccupancy(db, e.clubId).catch((err: unknown) =>
      app.log.error({ err, clubId: e.clubId }, 'occupancy reload failed'),
    );
  });
  app.addHook('onClose', async () => {
    off();
    offSafety();
    offAreas();
  });
}
