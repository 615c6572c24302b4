import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  clubWithUnreadMessages,
  createGlobalMessage,
  getGlobalMessage,
  listClubMessages,
  listGlobalMessages,
  listUserMessages,
  markAllMessagesRead,
  markMessageRead,
  updateGlobalMessage,
} from './global-messages.service.js';

/** Global messages (seed 000 §7; docs/messages.md); the entries are `contract.globalMessages`. */
export async function globalMessageRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.globalMessages;
  route(app, c.all, async (req) => listClubMessages(db, req.auth, req.params.externalClubId));
  route(app, c.allByUser, async (req) => listUserMessages(db, req.auth, req.params.externalClubId, req.params.userId));
  route(app, c.unread, async (req) =>
    listUserMessages(db, req.auth, req.params.externalClubId, req.params.userId, true),
  );
  route(app, c.markRead, async (req) => {
    const p = req.params;
    return markMessageRead(db, req.auth, p.messageId, p.externalClubId, p.userId);
  });
  route(app, c.markAllRead, async (req) =>
    markAllMessagesRead(db, req.auth, req.params.externalClubId, req.params.userId),
  );
  route(app, c.clubWithUnread, async (req) => clubWithUnreadMessages(db, req.auth, req.params.userId));
  route(app, c.list, async () => listGlobalMessages(db));
  route(app, c.get, async (req) => getGlobalMessage(db, req.params.id));
  route(app, c.create, async (req) => createGlobalMessage(db, bus, req.auth, req.body));
  route(app, c.update, async (req) => updateGlobalMessage(db, bus, req.auth, req.params.id, req.body));
}
