import { aliasedTable, and, desc, eq } from 'drizzle-orm';
import {
  ClubSettings,
  type Incident,
  type IncidentInput,
  type IncidentSource,
  type IncidentStatus,
  type TerminalMode,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { clubs, feedbackCategories, incidents, terminals, users } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import type { EventBus } from '../../lib/event-bus.js';
import { queueDelivery } from './webhook.service.js';

/**
 * Incident reports (issue 16, docs/messages.md "Incident reports"): a client
 * at a terminal or a staff member in the console reports something in one of
 * the club's feedback categories ("towels missing", "water too cold"); staff
 * see them live and mark them handled. Every report and every handling is
 * published on the club's live feed (`incident`).
 */

type Row = typeof incidents.$inferSelect;

/** What a report carries, from the console or a terminal. */
export interface IncidentReport {
  clubId: number;
  categoryId: number;
  note: string;
  source: IncidentSource;
  terminalId: number | null;
  /** The terminal's event id (a resend is stored once). */
  eventId?: string;
  /** The staff member who reported it in the console. */
  reportedBy?: number;
}

const handler = aliasedTable(users, 'handler');

/** The incidents of a club with their category, terminal and handler (one query). */
async function selectIncidents(db: Db, clubId: number, status: IncidentStatus | 'all', id?: number) {
  const rows = await db
    .select({
      i: incidents,
      categoryName: feedbackCategories.name,
      type: feedbackCategories.type,
      terminalName: terminals.name,
      handledBy: handler.name,
      handledByUsername: handler.username,
    })
    .from(incidents)
    .innerJoin(feedbackCategories, eq(feedbackCategories.id, incidents.categoryId))
    .leftJoin(terminals, eq(terminals.id, incidents.terminalId))
    .leftJoin(handler, eq(handler.id, incidents.handledBy))
    .where(
      scoped(db, clubId).where(
        incidents,
        status === 'all' ? undefined : eq(incidents.status, status),
        id === undefined ? undefined : eq(incidents.id, id),
      ),
    )
    .orderBy(desc(incidents.createdAt), desc(incidents.id))
    .limit(1000);
  return rows.map((r): Incident => ({
    id: r.i.id,
    categoryId: r.i.categoryId,
    categoryName: r.categoryName,
    type: r.type as TerminalMode,
    severityId: r.i.severityId,
    source: r.i.source as IncidentSource,
    terminalId: r.i.terminalId,
    terminalName: r.terminalName,
    note: r.i.note,
    status: r.i.status as IncidentStatus,
    createdAt: r.i.createdAt.toISOString(),
    handledAt: r.i.handledAt?.toISOString() ?? null,
    handledBy: r.handledBy || r.handledByUsername || null,
  }));
}

/** GET /api/Incident: the club's incidents of one status (or all), newest first, at most 1000. */
export async function listIncidents(db: Db, clubId: number, status: IncidentStatus | 'all') {
  const items = await selectIncidents(db, clubId, status);
  return { items, total: items.length };
}

async function getIncident(db: Db, clubId: number, id: number): Promise<Incident> {
  const [i] = await selectIncidents(db, clubId, 'all', id);
  if (!i) throw notFound('incident');
  return i;
}

/**
 * Stores a report: the category must be the club's and not deleted, the
 * terminal (when named) the club's. A terminal's resend (same terminal and
 * event id) returns the stored incident. Publishes `incident` on the bus.
 * @throws AppError NOT_FOUND (404) "feedback category not found" / "terminal not found"
 */
export async function reportIncident(db: Db, bus: EventBus, r: IncidentReport, actor?: Actor): Promise<Incident> {
  const s = scoped(db, r.clubId);
  const category = await s.one(feedbackCategories, r.categoryId, 'feedback category', { live: true });
  if (r.terminalId != null) await s.one(terminals, r.terminalId, 'terminal');
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(incidents)
      .values({
        clubId: r.clubId,
        categoryId: category.id,
        severityId: category.defaultSeverityId,
        source: r.source,
        terminalId: r.terminalId,
        eventId: r.eventId ?? null,
        reportedBy: r.reportedBy ?? null,
        note: r.note,
      })
      .onConflictDoNothing()
      .returning();
    // To the club's reporting system, when its webhook is set (webhook.service.ts).
    if (inserted) await queueDelivery(tx, r.clubId, inserted.id);
    if (inserted && actor) {
      await audit(tx, actor, { action: 'create', entity: 'incident', entityId: inserted.id, after: inserted });
    }
    return inserted;
  });
  const stored: Row | undefined =
    row ??
    (
      await db
        .select()
        .from(incidents)
        .where(and(eq(incidents.terminalId, r.terminalId!), eq(incidents.eventId, r.eventId!)))
    )[0];
  if (row) bus.publish('incident', { clubId: r.clubId, incidentId: row.id });
  return getIncident(db, r.clubId, stored!.id);
}

/** POST /api/Incident: a staff member reports in the console. Audited. */
export async function createIncident(db: Db, bus: EventBus, actor: Actor, input: IncidentInput): Promise<Incident> {
  return reportIncident(
    db,
    bus,
    { clubId: actor.clubId, ...input, source: 'console', reportedBy: actor.userId },
    actor,
  );
}

/**
 * PUT /api/Incident/Handle/{id}: marks the incident handled by the caller
 * (already handled: unchanged). Audited; published on the live feed.
 * @throws AppError NOT_FOUND (404) for another club's incident
 */
export async function handleIncident(db: Db, bus: EventBus, actor: Actor, id: number): Promise<Incident> {
  const changed = await db.transaction(async (tx) => {
    const s = scoped(tx, actor.clubId);
    const before = await s.one(incidents, id, 'incident', { forUpdate: true });
    if (before.status === 'handled') return false;
    const after = await s.update(incidents, id, { status: 'handled', handledBy: actor.userId, handledAt: new Date() });
    await audit(tx, actor, { action: 'handle', entity: 'incident', entityId: id, before, after });
    return true;
  });
  if (changed) bus.publish('incident', { clubId: actor.clubId, incidentId: id });
  return getIncident(db, actor.clubId, id);
}

/**
 * A client's report at a terminal (terminal message `incident`,
 * docs/terminal-protocol.md): stored when the club's incident reports are on,
 * the terminal is approved and the category is the club's; a resend (same
 * terminal and eventId) answers the stored incident.
 * @returns the stored incident's id, or null when refused (INCIDENT_REFUSED)
 */
export async function reportFromTerminal(
  db: Db,
  bus: EventBus,
  link: { clubId: number; terminalId: number; approved: boolean },
  m: { eventId: string; categoryId: number; note: string },
): Promise<number | null> {
  if (!link.approved) return null;
  const [c] = await db.select({ settings: clubs.settings }).from(clubs).where(eq(clubs.id, link.clubId));
  if (!c || !ClubSettings.parse(c.settings ?? {}).isIncidentReportEnabled) return null;
  const found = await scoped(db, link.clubId).find(feedbackCategories, m.categoryId, { live: true });
  if (!found) return null;
  const incident = await reportIncident(db, bus, {
    clubId: link.clubId,
    categoryId: m.categoryId,
    note: m.note,
    source: 'terminal',
    terminalId: link.terminalId,
    eventId: m.eventId,
  });
  return incident.id;
}
