import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  FEED_RATE_PER_MINUTE,
  eventsFor,
  feedIcs,
  feedLink,
  hoursFor,
  omerFor,
  rotateFeed,
  zmanimFor,
} from './calendar.service.js';

/** The calendar of the club's location (docs/calendar.md "The calendar API"); the entries are `contract.calendar`. */
export async function calendarRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.calendar;
  route(app, c.events, async (req) => eventsFor(db, req.auth.clubId, req.query));
  route(app, c.zmanim, async (req) => zmanimFor(db, req.auth.clubId, req.query));
  route(app, c.omer, async (req) => omerFor(db, req.auth.clubId, req.query));
  route(app, c.hours, async (req) => hoursFor(db, req.auth.clubId, req.query));
  route(app, c.feedLink, async (req) => feedLink(db, req.auth.clubId));
  route(app, c.rotateFeed, async (req) => rotateFeed(db, req.auth));
  // Public: a per-address limit keeps the feed's year of computation from being a free load generator.
  const rateLimit = { max: FEED_RATE_PER_MINUTE, timeWindow: 60_000, keyGenerator: (req: { ip: string }) => req.ip };
  route(
    app,
    c.feed,
    async (req, reply) =>
      reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=900')
        .send(await feedIcs(db, req.params.token, req.query.lang ?? 'he')),
    { config: { rateLimit } },
  );
}
