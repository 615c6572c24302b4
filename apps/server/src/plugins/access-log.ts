import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { PersonalDataRead } from '@venue/domain';
import type { Db } from '../db/index.js';
import { dataAccessLog } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads one person's data: a successful answer writes an access row (issue 39). */
    personalData?: PersonalDataRead;
  }
}

/** A positive integer id of the request's params, body or query under `key`, else null. */
function idOf(req: FastifyRequest, key: string): number | null {
  for (const part of [req.params, req.body, req.query] as unknown[]) {
    const v = part && typeof part === 'object' ? (part as Record<string, unknown>)[key] : undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) return n;
  }
  return null;
}

/**
 * The access log of personal data (issue 39, docs/privacy.md "Who looked"), in one place: every
 * route whose contract entry (or report) declares `personalData` writes one data_access_log row
 * — who (user id and name), when, what (the kind), about whom (the client; for a purchase or a
 * document, its client, and the record as `subject`), the route and the caller's address — before
 * its successful (2xx) answer is sent, so a read that was answered is a read that was logged. A
 * refused call (401, 403, 404, 400) reads nothing and writes nothing. The row is written on the
 * primary even when the read came from the replica.
 */
export const accessLogPlugin = fp<{ db: Db }>(async (app, opts) => {
  app.addHook('onSend', async (req, reply, payload) => {
    const pd = req.routeOptions.config.personalData;
    if (!pd || !req.auth || reply.statusCode >= 300) return payload;
    const id = idOf(req, 'id');
    const named = pd.of === 'client' ? (id ?? idOf(req, 'clientId')) : idOf(req, 'clientId');
    // A report over many clients (no client named) is not a read of one person's record.
    if (pd.of === 'client' && named == null) return payload;
    const clubId = req.auth.clubId;
    // A purchase's or a document's reader read its client's record: the row names her.
    const clientId =
      pd.of === 'purchase' && id != null
        ? sql`(select client_id from purchases where club_id = ${clubId} and id = ${id})`
        : pd.of === 'document' && id != null
          ? sql`(select p.client_id from purchase_documents d
              join purchases p on p.club_id = d.club_id and p.id = d.purchase_id
              where d.club_id = ${clubId} and d.id = ${id})`
          : named;
    await opts.db.insert(dataAccessLog).values({
      clubId,
      userId: req.auth.userId,
      username: req.auth.username,
      kind: pd.kind,
      clientId,
      subject: pd.of !== 'client' && id != null ? `${pd.of}:${id}` : '',
      route: `${req.method} ${req.routeOptions.url ?? ''}`,
      ip: req.ip,
    });
    return payload;
  });
});
