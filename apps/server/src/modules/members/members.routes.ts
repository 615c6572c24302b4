import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contract, parts } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { SandboxHostedPage } from '../../integrations/clearing/hosted.js';
import { endMemberSession, startMemberSession } from '../../lib/member-sessions.js';
import { checkMemberCode, requestMemberCode } from './member-sign-in.service.js';
import { queueMessage } from '../notifications/outbox.js';
import { getNotificationChoices, setNotificationChoices } from '../notifications/settings.js';
import {
  bound,
  chooseMemberClub,
  memberClubs,
  memberDocumentPdf,
  memberDocuments,
  memberEntrances,
  memberMe,
  memberMoney,
  memberSubscription,
  updateMemberContact,
} from './members.service.js';
import { checkoutState, settleCheckout, startCheckout } from './member-checkout.service.js';
import { hostedPageHtml, hostedPageInvalid } from './members.hosted-page.js';
import {
  memberAccept,
  memberBook,
  memberBookingRooms,
  memberBookings,
  memberBookingSlots,
  memberCancel,
  memberGateCode,
  memberJoinWaitlist,
} from './member-booking.service.js';

/** The app's language of a request (Accept-Language: English when it leads with en, else Hebrew). */
function langOf(req: FastifyRequest): 'he' | 'en' {
  return /^en\b/i.test(String(req.headers['accept-language'] ?? '')) ? 'en' : 'he';
}

/**
 * The member app's routes (issue 37; docs/members.md; the entries are
 * `contract.members`) and the sandbox provider's hosted payment page. Sign-in
 * codes go out through the notifications outbox (urgent: never deferred).
 */
export async function memberRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { tokenTtlSeconds, loginRateLimit } = app.deps.config;
  const c = contract.members;
  const hosted = new SandboxHostedPage(app.keys.hostedPage, clearingProvider());
  // Per address over all contacts, as the staff sign-in (docs/members.md "Limits").
  const rateLimit = { max: loginRateLimit, timeWindow: 60_000, keyGenerator: (req: { ip: string }) => req.ip };

  route(
    app,
    c.requestCode,
    async (req, reply) => {
      try {
        return await requestMemberCode(db, app.keys.memberCode, queueMessage, req.body, req.ip);
      } catch (err) {
        const retry = (err as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds;
        if (retry) void reply.header('retry-after', String(retry));
        throw err;
      }
    },
    { config: { rateLimit } },
  );
  route(
    app,
    c.signIn,
    async (req, reply) => {
      let checked;
      try {
        checked = await checkMemberCode(db, app.keys.memberCode, req.body, req.ip);
      } catch (err) {
        const retry = (err as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds;
        if (retry) void reply.header('retry-after', String(retry));
        throw err;
      }
      const only = checked.clubs.length === 1 ? checked.clubs[0] : null;
      const ms = await startMemberSession(db, {
        contact: checked.contact,
        clubId: only?.clubId ?? null,
        clientId: only?.clientId ?? null,
        ip: req.ip,
        ttlSeconds: tokenTtlSeconds,
      });
      const token = await app.jwt.sign({ sub: 0, tv: 0, ms });
      return {
        token,
        expiresIn: tokenTtlSeconds,
        clubs: checked.clubs.map(({ clubId, name }) => ({ clubId, name })),
        clubId: only?.clubId ?? null,
      };
    },
    { config: { rateLimit } },
  );
  route(app, c.clubs, async (req) => memberClubs(db, req.member));
  route(app, c.chooseClub, async (req) => chooseMemberClub(db, req.member, req.body.clubId));
  route(app, c.logout, async (req) => {
    await endMemberSession(db, req.member.sessionId, 'signout');
    return { ok: true as const };
  });
  route(app, c.me, async (req) => memberMe(db, bound(req.member)));
  route(app, c.subscription, async (req) => memberSubscription(db, bound(req.member), req.params.id, langOf(req)));
  route(app, c.money, async (req) => memberMoney(db, bound(req.member), req.params.id));
  route(app, c.entrances, async (req) => memberEntrances(db, bound(req.member), req.params.id));
  route(app, c.documents, async (req) => memberDocuments(db, bound(req.member), req.params.id));
  route(app, c.documentPdf, async (req, reply) => {
    const d = await memberDocumentPdf(db, bound(req.member), req.params.id);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${d.filename}"`)
      .header('cache-control', 'no-store')
      .send(d.pdf);
  });
  route(app, c.updateContact, async (req) => updateMemberContact(db, bound(req.member), req.body));
  noticeChoiceRoutes(app);
  bookingRoutes(app);
  route(app, c.checkout, async (req) => startCheckout(db, hosted, bound(req.member), req.body, langOf(req)));
  route(app, c.checkoutState, async (req) => checkoutState(db, bound(req.member), req.params.code));
  route(app, c.paymentCallback, async (req) => settleCheckout(db, hosted, clearingProvider(), req.body));

  // The sandbox provider's hosted payment page (outside /api: the provider's page, no member session).
  await app.register(async (pageApp) => {
    pageApp.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const p = pageApp.withTypeProvider<ZodTypeProvider>();
    const Query = z.object({ r: z.string().max(4000) });
    p.get(
      '/sandbox/hosted/pay',
      { config: { public: true }, schema: { hide: true, querystring: Query } },
      async (req, reply) => {
        const r = hosted.pageRequest(req.query.r);
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        return r ? hostedPageHtml(r) : reply.status(404).send(hostedPageInvalid());
      },
    );
    p.post(
      '/sandbox/hosted/pay',
      {
        // The provider's page: posted by its own form, with no session to forge.
        config: { public: true, antiForgery: false },
        schema: {
          hide: true,
          querystring: Query,
          body: z.object({
            number: parts.text(30).optional(),
            expiry: parts.text(5).optional(),
            cvv: parts.text(4).optional(),
            cancel: parts.text(1).optional(),
          }),
        },
      },
      async (req, reply) => {
        const r = hosted.pageRequest(req.query.r);
        if (!r) return reply.status(404).type('text/html; charset=utf-8').send(hostedPageInvalid());
        const { callback } = await hosted.submit(r, req.body);
        // Server to server, as a real provider's notification (here through the app's own router).
        const res = await app.inject({ method: 'POST', url: r.callbackUrl, payload: callback });
        if (res.statusCode !== 200) {
          return reply.status(502).type('text/html; charset=utf-8').send(hostedPageHtml(r, res.json().message));
        }
        return reply.redirect(r.returnUrl, 303);
      },
    );
  });
}

/** Her notification choices (docs/notifications.md "Opting out"): the notifications area's service. */
function noticeChoiceRoutes(app: FastifyInstance): void {
  const { db } = app.deps.database;
  const c = contract.members;
  route(app, c.notificationChoices, async (req) => {
    const m = bound(req.member);
    return getNotificationChoices(db, m.clubId, m.clientId);
  });
  route(app, c.setNotificationChoices, async (req) => {
    const m = bound(req.member);
    // The member herself: no staff user (audited as the member's change).
    return setNotificationChoices(db, { clubId: m.clubId, userId: null, ip: m.ip }, m.clientId, req.body);
  });
}

/** Her booking (issue 38; docs/members.md "Booking"): the appointments service, as herself only. */
function bookingRoutes(app: FastifyInstance): void {
  const { db } = app.deps.database;
  const c = contract.members;
  route(app, c.bookingRooms, async (req) => memberBookingRooms(db, bound(req.member)));
  route(app, c.bookingSlots, async (req) => memberBookingSlots(db, bound(req.member), req.query));
  route(app, c.bookings, async (req) => memberBookings(db, bound(req.member)));
  route(app, c.book, async (req) => memberBook(db, clearingProvider(), bound(req.member), req.body));
  route(app, c.cancelBooking, async (req) => memberCancel(db, clearingProvider(), bound(req.member), req.params.id));
  route(app, c.acceptOffer, async (req) => memberAccept(db, clearingProvider(), bound(req.member), req.params.id));
  route(app, c.gateCode, async (req) => memberGateCode(db, bound(req.member), req.params.id));
  route(app, c.joinWaitlist, async (req) => memberJoinWaitlist(db, bound(req.member), req.body));
}
