import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  ClientStatus,
  localParts,
  localToInstant,
  type AreaInput,
  type AreaList,
  type AreaPatch,
  type AreaRecord,
  type CardSharingQuery,
  type CardSharingReport,
  type InsideList,
  type OccupancyNow,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { areaPresence, clients, clubs, gateAreas, gateAreaTerminals, terminals } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';
import type { EventBus } from '../../lib/event-bus.js';
import { notFound } from '../../lib/errors.js';
import { assertValid } from '../../lib/validation.js';
import { scoped } from '../../lib/scoped.js';
import { clubLocation } from '../club/club.service.js';
import { closeOverstays, recordAreaExit, reloadOccupancy } from '../gate/occupancy.js';

/**
 * Live occupancy for the console (issue 36; docs/gate-safety.md "Occupancy"): the club's areas and
 * their terminals, who is inside now (per area, in all, the day's curve), the attendant's check-out,
 * and the card-sharing report. The gate's own checks read memory (modules/gate/occupancy.ts); these
 * views read the database.
 */

function present(a: typeof gateAreas.$inferSelect, terminalIds: number[]): AreaRecord {
  return {
    id: a.id,
    name: a.name,
    capacity: a.capacity,
    maxStayMinutes: a.maxStayMinutes,
    antiPassback: a.antiPassback,
    antiPassbackResetMinutes: a.antiPassbackResetMinutes,
    terminalIds,
  };
}

/** GET /api/Occupancy/Areas: the club's areas (not deleted), by name, with their terminals. */
export async function listAreas(db: Db | Tx, clubId: number): Promise<AreaList> {
  const [areas, links] = await Promise.all([
    db
      .select()
      .from(gateAreas)
      .where(and(eq(gateAreas.clubId, clubId), eq(gateAreas.deleted, false)))
      .orderBy(asc(gateAreas.name), asc(gateAreas.id)),
    db.select().from(gateAreaTerminals).where(eq(gateAreaTerminals.clubId, clubId)),
  ]);
  return {
    items: areas.map((a) =>
      present(
        a,
        links
          .filter((l) => l.areaId === a.id)
          .map((l) => l.terminalId)
          .sort((x, y) => x - y),
      ),
    ),
  };
}

/** The club's live area, else 404. */
async function liveArea(db: Db | Tx, clubId: number, id: number) {
  const [a] = await db
    .select()
    .from(gateAreas)
    .where(and(eq(gateAreas.clubId, clubId), eq(gateAreas.id, id), eq(gateAreas.deleted, false)));
  if (!a) throw notFound('area');
  return a;
}

/** Puts `terminalIds` (the club's live terminals, else 400 terminalIds: invalid) in area `areaId` only. */
async function setTerminals(tx: Tx, clubId: number, areaId: number, terminalIds: number[]): Promise<void> {
  const ids = [...new Set(terminalIds)];
  if (ids.length > 0) {
    const found = await tx
      .select({ id: terminals.id })
      .from(terminals)
      .where(scoped(tx, clubId).live(terminals, inArray(terminals.id, ids)));
    if (found.length !== ids.length) assertValid([{ path: 'terminalIds', message: 'invalid' }]);
  }
  await tx
    .delete(gateAreaTerminals)
    .where(
      and(
        eq(gateAreaTerminals.clubId, clubId),
        ids.length > 0
          ? sql`(${gateAreaTerminals.areaId} = ${areaId} or ${inArray(gateAreaTerminals.terminalId, ids)})`
          : eq(gateAreaTerminals.areaId, areaId),
      ),
    );
  if (ids.length > 0)
    await tx.insert(gateAreaTerminals).values(ids.map((terminalId) => ({ clubId, terminalId, areaId })));
}

/** After a change of the club's areas: this instance reads them at once, the others on the bus. */
async function changed(db: Db, bus: EventBus, clubId: number): Promise<void> {
  await reloadOccupancy(db, clubId);
  bus.publish('gate-areas', { clubId });
}

/** POST /api/Occupancy/Areas: a new area with its terminals (audited: create gateArea). */
export async function createArea(db: Db, bus: EventBus, actor: Actor, input: AreaInput): Promise<AreaRecord> {
  const { terminalIds, ...fields } = input;
  const id = await db.transaction(async (tx) => {
    const [a] = await tx
      .insert(gateAreas)
      .values({ clubId: actor.clubId, ...fields })
      .returning();
    await setTerminals(tx, actor.clubId, a!.id, terminalIds);
    await audit(tx, actor, { action: 'create', entity: 'gateArea', entityId: a!.id, after: input });
    return a!.id;
  });
  await changed(db, bus, actor.clubId);
  return (await listAreas(db, actor.clubId)).items.find((a) => a.id === id)!;
}

/** PATCH /api/Occupancy/Areas/{id} (audited: update gateArea). @throws NOT_FOUND for another club's area */
export async function updateArea(
  db: Db,
  bus: EventBus,
  actor: Actor,
  id: number,
  patch: AreaPatch,
): Promise<AreaRecord> {
  const before = await liveArea(db, actor.clubId, id);
  const { terminalIds, ...fields } = patch;
  await db.transaction(async (tx) => {
    if (Object.keys(fields).length > 0) {
      await tx
        .update(gateAreas)
        .set(fields)
        .where(and(eq(gateAreas.clubId, actor.clubId), eq(gateAreas.id, id)));
    }
    if (terminalIds) await setTerminals(tx, actor.clubId, id, terminalIds);
    await audit(tx, actor, { action: 'update', entity: 'gateArea', entityId: id, before, after: patch });
  });
  await changed(db, bus, actor.clubId);
  return (await listAreas(db, actor.clubId)).items.find((a) => a.id === id)!;
}

/** DELETE /api/Occupancy/Areas/{id}: deleted (its terminals in no area, its stays closed as checked out). */
export async function deleteArea(db: Db, bus: EventBus, actor: Actor, id: number): Promise<AreaList> {
  const before = await liveArea(db, actor.clubId, id);
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(gateAreas)
      .set({ deleted: true })
      .where(and(eq(gateAreas.clubId, actor.clubId), eq(gateAreas.id, id)));
    await tx
      .delete(gateAreaTerminals)
      .where(and(eq(gateAreaTerminals.clubId, actor.clubId), eq(gateAreaTerminals.areaId, id)));
    await tx
      .update(areaPresence)
      .set({ leftAt: now, leftHow: 'checkout' })
      .where(and(eq(areaPresence.clubId, actor.clubId), eq(areaPresence.areaId, id), isNull(areaPresence.leftAt)));
    await audit(tx, actor, { action: 'delete', entity: 'gateArea', entityId: id, before });
  });
  await changed(db, bus, actor.clubId);
  return listAreas(db, actor.clubId);
}

/** The club's local day of `now`: its start and the time zone. */
async function clubDay(db: Db, clubId: number, now: Date) {
  const [c] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const tz = clubLocation({ location: c?.location ?? null }).timeZone;
  const p = localParts(now, tz);
  const start = localToInstant({ year: p.year, month: p.month, day: p.day }, 0, tz);
  return { tz, start };
}

/**
 * GET /api/Occupancy/Now: people inside now per area and in all (the open stays, stays past the
 * maximum closed first), whether each area is full, the day's curve — people inside at the end of
 * each local hour so far, the last hour's point being now — and the stays closed by the maximum
 * stay today.
 */
export async function occupancyView(db: Db, clubId: number, now = new Date()): Promise<OccupancyNow> {
  await closeOverstays(db, clubId, now);
  const { start } = await clubDay(db, clubId, now);
  const areas = (await listAreas(db, clubId)).items;
  const ids = areas.map((a) => a.id);
  const stays =
    ids.length === 0
      ? []
      : await db
          .select({
            areaId: areaPresence.areaId,
            enteredAt: areaPresence.enteredAt,
            leftAt: areaPresence.leftAt,
            leftHow: areaPresence.leftHow,
            flagged: areaPresence.flagged,
          })
          .from(areaPresence)
          .where(
            and(
              eq(areaPresence.clubId, clubId),
              inArray(areaPresence.areaId, ids),
              sql`(${areaPresence.leftAt} is null or ${areaPresence.leftAt} > ${start.toISOString()}::timestamptz)`,
            ),
          );
  const open = stays.filter((s) => s.leftAt == null);
  const perArea = areas.map((a) => {
    const inside = open.filter((s) => s.areaId === a.id).length;
    return { id: a.id, name: a.name, capacity: a.capacity, inside, full: a.capacity > 0 && inside >= a.capacity };
  });
  const hours = Math.max(1, Math.ceil((now.getTime() - start.getTime()) / 3_600_000));
  const curve = Array.from({ length: hours }, (_, h) => {
    const end = Math.min(start.getTime() + (h + 1) * 3_600_000, now.getTime());
    const inside = stays.filter(
      (s) => s.enteredAt.getTime() <= end && (s.leftAt == null || s.leftAt.getTime() > end),
    ).length;
    return { hour: h, inside };
  });
  return {
    total: open.length,
    areas: perArea,
    curve,
    autoClosedToday: stays.filter((s) => s.leftHow === 'auto' && s.flagged).length,
  };
}

/**
 * GET /api/Occupancy/Inside: everyone inside now, by area then time of entry. Names and numbers
 * only for a user who may see the client list (roleViewClientsList); others get the count by area
 * and times only (docs/gate-safety.md "Who sees names").
 */
export async function insideList(db: Db, actor: Actor): Promise<InsideList> {
  await closeOverstays(db, actor.clubId);
  // Effective flags (an admin has every one): lib/actor.ts.
  const names = actor.permissions.roleViewClientsList === true;
  const rows = await db
    .select({
      areaId: areaPresence.areaId,
      areaName: gateAreas.name,
      enteredAt: areaPresence.enteredAt,
      clientId: areaPresence.clientId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      number: clients.number,
    })
    .from(areaPresence)
    .innerJoin(
      gateAreas,
      and(
        eq(gateAreas.clubId, areaPresence.clubId),
        eq(gateAreas.id, areaPresence.areaId),
        eq(gateAreas.deleted, false),
      ),
    )
    .innerJoin(clients, and(eq(clients.clubId, areaPresence.clubId), eq(clients.id, areaPresence.clientId)))
    .where(and(eq(areaPresence.clubId, actor.clubId), isNull(areaPresence.leftAt)))
    .orderBy(asc(gateAreas.name), asc(areaPresence.enteredAt));
  return {
    names,
    items: rows.map((r) => ({
      areaId: r.areaId,
      areaName: r.areaName,
      enteredAt: r.enteredAt.toISOString(),
      clientId: names ? r.clientId : null,
      name: names ? `${r.firstName} ${r.lastName}`.trim() : null,
      number: names ? r.number : null,
    })),
  };
}

/**
 * POST /api/Occupancy/CheckOut/{id}: an attendant checks a client out of the area they are in
 * (audited: checkOut of client). A client inside no area: 404.
 * @throws NOT_FOUND for another club's client or one not inside
 */
export async function checkOut(db: Db, actor: Actor, clientId: number): Promise<InsideList> {
  const c = await scoped(db, actor.clubId).one(clients, clientId, 'client');
  if (c.status === ClientStatus.Deleted) throw notFound('client');
  const areaId = await recordAreaExit(db, actor.clubId, clientId, new Date(), 'checkout');
  if (areaId == null) throw notFound('stay');
  await audit(db, actor, { action: 'checkOut', entity: 'client', entityId: clientId, after: { areaId } });
  return insideList(db, actor);
}

/**
 * GET /api/Occupancy/CardSharing?from&to&seconds&surplus: cards that look shared in the period
 * (club days, inclusive): the same client admitted at two different terminals less than `seconds`
 * apart (`twoPlaces`, how many such pairs), or with at least `surplus` more stays than exits
 * (`surplus`: stays ended by an exit or check-out against stays begun). Soft anti-passback
 * admissions are counted beside. Deleted clients are left out.
 */
export async function cardSharing(db: Db, clubId: number, q: CardSharingQuery): Promise<CardSharingReport> {
  const { tz } = await clubDay(db, clubId, new Date());
  const day = (d: string) => {
    const [y, m, dd] = d.split('-').map(Number);
    return { year: y!, month: m!, day: dd! };
  };
  const from = localToInstant(day(q.from), 0, tz);
  const to = localToInstant(day(q.to), 24 * 3600, tz);
  const pairs = await queryRows<{ client_id: number; n: number; last: string }>(
    db,
    sql`select a.client_id, count(*)::int as n, max(b.at) as last
      from entrance_logs a
      join entrance_logs b on b.club_id = a.club_id and b.client_id = a.client_id and b.id > a.id
        and b.terminal_id <> a.terminal_id and b.status = 1
        and b.at >= a.at and b.at < a.at + make_interval(secs => ${q.seconds})
      where a.club_id = ${clubId} and a.status = 1 and a.client_id is not null
        and a.at >= ${from.toISOString()}::timestamptz and a.at < ${to.toISOString()}::timestamptz
      group by a.client_id`,
  );
  const stays = await db
    .select({
      clientId: areaPresence.clientId,
      entered: sql<number>`count(*)::int`,
      exited: sql<number>`count(*) filter (where ${areaPresence.leftHow} in ('exit', 'checkout'))::int`,
      passbacks: sql<number>`count(*) filter (where ${areaPresence.passback})::int`,
      last: sql<string>`max(${areaPresence.enteredAt})`,
    })
    .from(areaPresence)
    .where(and(eq(areaPresence.clubId, clubId), gte(areaPresence.enteredAt, from), lt(areaPresence.enteredAt, to)))
    .groupBy(areaPresence.clientId);
  const ids = [...new Set([...pairs.map((p) => Number(p.client_id)), ...stays.map((s) => s.clientId)])];
  const people =
    ids.length === 0
      ? []
      : await db
          .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName, number: clients.number })
          .from(clients)
          .where(scoped(db, clubId).live(clients, inArray(clients.id, ids)));
  const byId = new Map(people.map((p) => [p.id, p]));
  const passbacksOf = new Map(stays.map((s) => [s.clientId, s.passbacks]));
  const iso = (v: unknown) => new Date(v as string).toISOString();
  const items: CardSharingReport['items'] = [];
  for (const p of pairs) {
    const c = byId.get(Number(p.client_id));
    if (!c) continue;
    items.push({
      clientId: c.id,
      name: `${c.firstName} ${c.lastName}`.trim(),
      number: c.number,
      kind: 'twoPlaces',
      count: Number(p.n),
      passbacks: passbacksOf.get(c.id) ?? 0,
      last: iso(p.last),
    });
  }
  for (const s of stays) {
    const c = byId.get(s.clientId);
    if (!c || s.entered - s.exited < q.surplus) continue;
    items.push({
      clientId: c.id,
      name: `${c.firstName} ${c.lastName}`.trim(),
      number: c.number,
      kind: 'surplus',
      count: s.entered - s.exited,
      passbacks: s.passbacks,
      last: iso(s.last),
    });
  }
  items.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return { items };
}
