import type { FastifyInstance } from 'fastify';
import type { ApiRoute } from '@venue/domain';
import type { Db } from '../db/index.js';
import { onReader } from '../db/replica.js';
import { route } from './contract-route.js';

/**
 * Registers a contract entry that only reads (a dashboard counter or chart):
 * `work(db, clubId)` runs on the replica when one is configured and fresh
 * enough, else on the primary (db/replica.ts `onReader`), and the call is
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
