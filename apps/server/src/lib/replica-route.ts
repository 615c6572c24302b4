import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRoute } from '@venue/domain';
import type { Db } from '../db/index.js';
import {
  readerOf,
  withReader,
  type ReadHandles,
  type ReadRouter,
  type ReadSession,
  type ReadSource,
} from '../db/replica.js';
import { route } from './contract-route.js';

/**
 * The HTTP side of the read replica (db/replica.ts has the rule): the
 * session a request reads as, the cookie that carries a write to other
 * instances, the hooks that count a user's writes, and the dashboard's
 * read-only routes.
 */

/** Cookie holding the time (ms since the epoch) of the user's last write, for `maxStalenessMs`. */
export const WROTE_COOKIE = 'venue_wrote';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read that may come from the replica (a POST report or export): not counted as a write. */
    readsReplica?: boolean;
  }
}

/** The read session of a request: its signed-in user and the write time its cookie carries. */
export function readSessionOf(req: FastifyRequest): ReadSession {
  const cookie = (req.cookies as Record<string, string | undefined> | undefined)?.[WROTE_COOKIE];
  return { userId: req.auth?.userId, wroteAt: Number(cookie ?? 0) };
}

/** The reader of a report, export or dashboard request (the primary when no replica is configured). */
export async function readerFor(database: ReadHandles, req: FastifyRequest): Promise<{ db: Db; source: ReadSource }> {
  return readerOf(database, readSessionOf(req));
}

/**
 * Runs a read of a report or the dashboard on the request's reader; when it
 * fails on the replica with a connection error or a recovery conflict, runs
 * it again on the primary (db/replica.ts `withReader`).
 */
export async function onReader<T>(
  database: ReadHandles,
  req: FastifyRequest,
  work: (db: Db, source: ReadSource) => Promise<T>,
): Promise<T> {
  return withReader(database, readSessionOf(req), work);
}

/**
 * Read-your-writes across instances (db/replica.ts): after a signed-in
 * user's successful write, this process remembers its time and the reply
 * carries it in {@link WROTE_COOKIE} for `maxStalenessMs`. Registered by
 * buildApp only when a replica is configured.
 */
export function trackWrites(app: FastifyInstance, router: ReadRouter): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const m = req.method;
    if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || reply.statusCode >= 400) return payload;
    if (req.routeOptions.config?.readsReplica || !req.auth?.userId) return payload;
    const at = Date.now();
    router.noteWrite(req.auth.userId, at);
    reply.setCookie(WROTE_COOKIE, String(at), {
      path: '/api',
      httpOnly: true,
      sameSite: 'strict',
      maxAge: Math.ceil(router.maxStalenessMs / 1000),
    });
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    // A write whose answer was streamed (onSend ran before its work ended) counts from its end.
    const m = req.method;
    if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || reply.statusCode >= 400) return;
    if (req.routeOptions.config?.readsReplica || !req.auth?.userId) return;
    router.noteWrite(req.auth.userId);
  });
}

/**
 * Registers a contract entry that only reads (a dashboard counter or chart):
 * `work(db, clubId)` runs on the replica when one is configured and fresh
 * enough, else on the primary ({@link onReader}), and the call is
 * not counted as the user's write (route config `readsReplica`).
 */
export function replicaRoute<E extends ApiRoute>(
  app: FastifyInstance,
  entry: E,
  work: (db: Db, clubId: number) => Promise<unknown>,
): void {
  const { database } = app.deps;
  route(app, entry, async (req) => onReader(database, req, (db) => work(db, req.auth.clubId)) as never, {
    config: { readsReplica: true },
  });
}
