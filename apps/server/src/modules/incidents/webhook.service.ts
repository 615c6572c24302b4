import { createHmac } from 'node:crypto';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { IncidentDelivery, IncidentWebhookInput, IncidentWebhookView } from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db, Tx } from '../../db/index.js';
import {
  clubs,
  feedbackCategories,
  incidentDeliveries,
  incidents,
  incidentWebhooks,
  terminals,
} from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { dataKeys, decrypt, encrypt } from '../../lib/crypto.js';
import { notFound } from '../../lib/errors.js';
import { assertValid } from '../../lib/validation.js';
import { deliveryFailure, postPublic, urlRefusal, type OutboundPolicy } from '../../lib/outbound.js';
import { recordWebhookAttempt } from '../../lib/metrics.js';

/**
 * The outgoing webhook of incident reports (issue 16, docs/messages.md
 * "Webhook"): each new incident of a club whose operator set a webhook is
 * queued as a delivery and POSTed, signed with HMAC-SHA256, to the club's
 * reporting system; failures are retried with exponential backoff; every
 * delivery is kept as the delivery log.
 */

/** Attempts before a delivery is given up (failed). */
export const MAX_ATTEMPTS = 8;
/** Wait after the first failed attempt; doubled after each further one, at most BACKOFF_MAX_MS. */
export const BACKOFF_FIRST_MS = 30_000;
export const BACKOFF_MAX_MS = 60 * 60_000;
/** How long one attempt may take (ms); a claimed delivery is retried after this lease if its sender died. */
const ATTEMPT_TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;

const aad = (clubId: number) => `club:${clubId}:incident-webhook`;

/** The wait (ms) after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/** The signature header of a body sent at `timestamp` (unix seconds): `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function requireClub(actor: Actor): number {
  if (!actor.clubId) throw notFound('club');
  return actor.clubId;
}

function view(r: typeof incidentWebhooks.$inferSelect | undefined): IncidentWebhookView {
  return {
    url: r?.url ?? '',
    enabled: r?.enabled ?? false,
    hasSecret: Boolean(r?.secretEnc),
    updatedAt: r?.updatedAt.toISOString() ?? null,
  };
}

/** GET /api/Incident/Webhook (operator, the club of the `clubExternalId` header). */
export async function getWebhook(db: Db, actor: Actor): Promise<IncidentWebhookView> {
  const clubId = requireClub(actor);
  const [r] = await db.select().from(incidentWebhooks).where(eq(incidentWebhooks.clubId, clubId));
  return view(r);
}

/**
 * PUT /api/Incident/Webhook (operator): sets the club's URL, secret (kept
 * when left out; encrypted at rest) and on/off. Audited without the secret.
 * The URL must reach the public internet (lib/outbound.ts; `policy.allow` for
 * an on-premise receiver) and carry no credentials.
 * @throws AppError VALIDATION_ERROR (400) secret required when a URL is set and none is stored;
 *   url webhookUrl, webhookCredentials, webhookAddress
 */
export async function setWebhook(
  db: Db,
  actor: Actor,
  input: IncidentWebhookInput,
  policy: OutboundPolicy,
): Promise<IncidentWebhookView> {
  const clubId = requireClub(actor);
  const refusal = input.url ? urlRefusal(input.url, policy) : null;
  if (refusal) assertValid([{ path: 'url', message: refusal }]);
  const keys = await dataKeys(db);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(incidentWebhooks).where(eq(incidentWebhooks.clubId, clubId));
    const secretEnc = input.secret ? encrypt(keys, input.secret, aad(clubId)) : (before?.secretEnc ?? null);
    if (input.url && !secretEnc) {
      assertValid([{ path: 'secret', message: 'required' }]);
    }
    const values = { url: input.url, enabled: input.enabled, secretEnc, updatedAt: new Date() };
    const [r] = await tx
      .insert(incidentWebhooks)
      .values({ clubId, ...values })
      .onConflictDoUpdate({ target: incidentWebhooks.clubId, set: values })
      .returning();
    await audit(tx, actor, {
      action: 'update',
      entity: 'incidentWebhook',
      entityId: clubId,
      before: before ? { url: before.url, enabled: before.enabled } : null,
      after: { url: r.url, enabled: r.enabled, secretChanged: Boolean(input.secret) },
    });
    return view(r);
  });
}

/** Queues the delivery of a new incident when the club's webhook is set and on (inside the report's transaction). */
export async function queueDelivery(tx: Tx, clubId: number, incidentId: number): Promise<boolean> {
  const [w] = await tx.select().from(incidentWebhooks).where(eq(incidentWebhooks.clubId, clubId));
  if (!w || !w.enabled || !w.url || !w.secretEnc) return false;
  await tx.insert(incidentDeliveries).values({ clubId, incidentId });
  return true;
}

/** GET /api/Incident/Deliveries: the club's delivery log, newest first (at most 500). */
export async function listDeliveries(db: Db, clubId: number): Promise<IncidentDelivery[]> {
  const rows = await db
    .select()
    .from(incidentDeliveries)
    .where(eq(incidentDeliveries.clubId, clubId))
    .orderBy(desc(incidentDeliveries.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    incidentId: r.incidentId,
    status: r.status as IncidentDelivery['status'],
    attempts: r.attempts,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    nextAttemptAt: r.status === 'pending' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** What is POSTed: the incident in the reporting system's terms (its category, severity and location ids). */
async function payloadOf(db: Db, incidentId: number) {
  const [r] = await db
    .select({
      i: incidents,
      externalClubId: clubs.externalClubId,
      categoryName: feedbackCategories.name,
      type: feedbackCategories.type,
      reportingSystemCategoryId: feedbackCategories.reportingSystemCategoryId,
      reportingSystemLocationId: feedbackCategories.reportingSystemLocationId,
      terminalName: terminals.name,
    })
    .from(incidents)
    .innerJoin(clubs, eq(clubs.id, incidents.clubId))
    .innerJoin(feedbackCategories, eq(feedbackCategories.id, incidents.categoryId))
    .leftJoin(terminals, eq(terminals.id, incidents.terminalId))
    .where(eq(incidents.id, incidentId));
  return {
    incidentId: r.i.id,
    externalClubId: r.externalClubId,
    categoryId: r.reportingSystemCategoryId,
    severityId: r.i.severityId,
    locationId: r.reportingSystemLocationId,
    categoryName: r.categoryName,
    type: r.type,
    source: r.i.source,
    terminal: r.terminalName,
    note: r.i.note,
    reportedAt: r.i.createdAt.toISOString(),
  };
}

/** Sends one request; resolves with the HTTP status, or throws on a network error or timeout. */
export type Sender = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<number>;

/** The real sender: public addresses only (lib/outbound.ts), no redirects, ATTEMPT_TIMEOUT_MS. */
export const publicSender =
  (policy: OutboundPolicy): Sender =>
  (url, init) =>
    postPublic(url, init, policy, ATTEMPT_TIMEOUT_MS);

/**
 * Sends the deliveries due at `now` (at most `limit`): each is claimed first
 * (its next attempt moved a lease ahead), so two server instances never send
 * one twice at once. A 2xx answer delivers it; anything else (another status,
 * a network error, a timeout, a redirect) is a failed attempt, retried after
 * `backoffMs(attempts)` until MAX_ATTEMPTS. Returns how many were attempted.
 */
export async function deliverDue(
  db: Db,
  now = new Date(),
  send: Sender = publicSender({ allow: [] }),
  limit = 20,
): Promise<number> {
  const due = await db
    .select({ id: incidentDeliveries.id })
    .from(incidentDeliveries)
    .where(and(eq(incidentDeliveries.status, 'pending'), lte(incidentDeliveries.nextAttemptAt, now)))
    .orderBy(asc(incidentDeliveries.nextAttemptAt))
    .limit(limit);
  let attempted = 0;
  for (const { id } of due) {
    const [claimed] = await db
      .update(incidentDeliveries)
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        and(
          eq(incidentDeliveries.id, id),
          eq(incidentDeliveries.status, 'pending'),
          lte(incidentDeliveries.nextAttemptAt, now),
        ),
      )
      .returning();
    if (!claimed) continue;
    attempted += 1;
    await attempt(db, claimed, now, send);
  }
  return attempted;
}

async function attempt(db: Db, d: typeof incidentDeliveries.$inferSelect, now: Date, send: Sender): Promise<void> {
  const [w] = await db.select().from(incidentWebhooks).where(eq(incidentWebhooks.clubId, d.clubId));
  let status: number | null = null;
  let error: string | null = null;
  // What the delivery log shows staff: a category, never a socket's own words (docs/security.md "Outgoing requests").
  if (!w || !w.enabled || !w.url || !w.secretEnc) {
    error = 'notSet';
  } else {
    try {
      const secret = decrypt(await dataKeys(db), w.secretEnc, aad(d.clubId));
      const body = JSON.stringify(await payloadOf(db, d.incidentId));
      const timestamp = Math.floor(now.getTime() / 1000);
      status = await send(w.url, {
        body,
        headers: {
          'content-type': 'application/json',
          'x-venue-delivery': String(d.id),
          'x-venue-timestamp': String(timestamp),
          'x-venue-signature': signDelivery(secret, timestamp, body),
        },
      });
      if (status < 200 || status >= 300) error = 'http';
    } catch (e) {
      error = deliveryFailure(e);
    }
  }
  const attempts = d.attempts + 1;
  const delivered = error == null;
  recordWebhookAttempt(delivered ? 'delivered' : attempts >= MAX_ATTEMPTS ? 'failed' : 'retry');
  await db
    .update(incidentDeliveries)
    .set({
      attempts,
      lastStatusCode: status,
      lastError: error,
      status: delivered ? 'delivered' : attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
      deliveredAt: delivered ? now : null,
      nextAttemptAt: delivered || attempts >= MAX_ATTEMPTS ? null : new Date(now.getTime() + backoffMs(attempts)),
    })
    .where(eq(incidentDeliveries.id, d.id));
}

/** Count of deliveries still waiting (operations: a growing number means the reporting system is down). */
export async function pendingDeliveries(db: Db): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(incidentDeliveries)
    .where(eq(incidentDeliveries.status, 'pending'));
  return r?.n ?? 0;
}
