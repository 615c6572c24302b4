import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import type { Transports } from './delivery.js';
import { startNotifications } from './delivery.job.js';
import { listOutbox } from './outbox.js';
import {
  getNotificationChoices,
  getNotificationSettings,
  saveNotificationSettings,
  setNotificationChoices,
} from './settings.js';
import { listTemplates, previewTemplate, resetTemplate, saveTemplate } from './templates.js';
import { transportOf } from './transport.js';
import { unsubscribePage, unsubscribeSubmit } from './unsubscribe-page.js';

/**
 * Notices to members and the outbox (docs/notifications.md); the entries are `contract.notifications`.
 * `documentPdf` (modules/documents, handed in by routes.ts) attaches tax documents to e-mails.
 */
export async function notificationRoutes(
  app: FastifyInstance,
  opts: { documentPdf?: Transports['documentPdf'] },
): Promise<void> {
  const { db } = app.deps.database;
  const { notify } = app.deps.config;
  const c = contract.notifications;
  route(app, c.outbox, async (req) => listOutbox(db, req.auth.clubId, req.query));
  route(app, c.transport, async () => transportOf(notify));
  route(app, c.getSettings, async (req) => getNotificationSettings(db, req.auth.clubId));
  route(app, c.saveSettings, async (req) => saveNotificationSettings(db, req.auth, req.body));
  route(app, c.templates, async (req) => listTemplates(db, req.auth.clubId));
  route(app, c.saveTemplate, async (req) => saveTemplate(db, req.auth, req.body));
  route(app, c.resetTemplate, async (req) => resetTemplate(db, req.auth, req.body));
  route(app, c.preview, async (req) =>
    previewTemplate(
      db,
      req.auth.clubId,
      req.body,
      (await getNotificationSettings(db, req.auth.clubId)).senderName,
      notify.publicUrl,
    ),
  );
  route(app, c.getChoices, async (req) => getNotificationChoices(db, req.auth.clubId, req.params.id));
  route(app, c.setChoices, async (req) => setNotificationChoices(db, req.auth, req.params.id, req.body));

  // The unsubscribe link of an e-mail (docs/notifications.md "Unsubscribe"): a page with one button
  // (GET changes nothing: mail scanners open links), and its POST, which is also RFC 8058's one-click.
  await app.register(async (pageApp) => {
    pageApp.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const p = pageApp.withTypeProvider<ZodTypeProvider>();
    const Params = z.object({ token: z.string().max(200) });
    p.get(
      '/unsubscribe/:token',
      { config: { public: true }, schema: { hide: true, params: Params } },
      async (req, reply) => {
        const page = await unsubscribePage(db, req.params.token);
        reply.type('text/html; charset=utf-8');
        return reply.status(page.status).send(page.html);
      },
    );
    p.post(
      '/unsubscribe/:token',
      // Posted by the page's own form or by a mail client's one-click: no console session to forge.
      { config: { public: true, antiForgery: false }, schema: { hide: true, params: Params } },
      async (req, reply) => {
        const page = await unsubscribeSubmit(db, req.params.token, req.ip);
        reply.type('text/html; charset=utf-8');
        return reply.status(page.status).send(page.html);
      },
    );
  });
  startNotifications(app, opts.documentPdf);
}
