import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  groupStateAt,
  type FieldError,
  type Group,
  type GroupsStateNow,
  type GroupInput,
  type GroupPatch,
  type ScheduleRow,
  type ScheduleRowInput,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, clubs, groups, schedules, scheduleToGroup, terminals } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { scoped } from '../../lib/scoped.js';
import { assertValid, dateErrors, int32Errors } from '../../lib/validation.js';
import { clubLocation } from '../club/club.service.js';

type GroupRow = typeof groups.$inferSelect;
type ScheduleDbRow = typeof schedules.$inferSelect;

/** Maps a stored schedule row to the API shape (seed 001 §3 "Schedule entry"); times in minutes after midnight. */
export function presentScheduleRow(row: ScheduleDbRow): ScheduleRow {
  return {
    id: row.id,
    sortOrder: row.sortOrder,
    days: row.days,
    fromTime: row.fromTime,
    toTime: row.toTime,
    fromHalachic: row.fromHalachic as ScheduleRow['fromHalachic'],
    fromOffset: row.fromOffset,
    toHalachic: row.toHalachic as ScheduleRow['toHalachic'],
    toOffset: row.toOffset,
    fromDate: row.fromDate,
    toDate: row.toDate,
    price: row.price,
    pricePerBeat: row.pricePerBeat,
    displayName: row.displayName,
    maxPurchaseQty: row.maxPurchaseQty,
    description: row.description,
    minutes: row.minutes,
    priority: row.priority,
    entranceState: row.entranceState as ScheduleRow['entranceState'],
    terminalId: row.terminalId,
  };
}

/** Maps a group row, its schedule rows (any order) and its client count to the API shape. */
export function presentGroup(row: GroupRow, rows: ScheduleDbRow[], clientCount: number): Group {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    allowEntrance: row.allowEntrance,
    allowPayment: row.allowPayment,
    allowPurchases: row.allowPurchases,
    bonus: row.bonus,
    minChargeAmount: row.minChargeAmount,
    maxChargeAmount: row.maxChargeAmount,
    entranceState: row.entranceState as Group['entranceState'],
    subscriptionEndType: row.subscriptionEndType,
    daysToExtend: row.daysToExtend,
    delayBetweenEntriesMinutes: row.delayBetweenEntriesMinutes,
    maxEntriesPerDay: row.maxEntriesPerDay,
    maxEntriesPerDayPerSubscriber: row.maxEntriesPerDayPerSubscriber,
    priority: row.priority,
    newDayStartHour: row.newDayStartHour,
    useHalachicTimes: row.useHalachicTimes,
    schedule: [...rows].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id).map(presentScheduleRow),
    clientCount,
  };
}

/** Non-deleted clients per group of the club. */
async function clientCounts(db: Db | Tx, clubId: number, groupIds: number[]): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: clients.groupId, n: sql<number>`count(*)::int` })
    .from(clients)
    .where(scoped(db, clubId).live(clients, inArray(clients.groupId, groupIds)))
    .groupBy(clients.groupId);
  return new Map(rows.map((r) => [r.groupId as number, r.n]));
}

async function scheduleRows(db: Db | Tx, clubId: number, groupIds: number[]): Promise<ScheduleDbRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select()
    .from(schedules)
    .where(scoped(db, clubId).where(schedules, inArray(schedules.groupId, groupIds)))
    .orderBy(asc(schedules.sortOrder), asc(schedules.id));
}

/** The club's group `id` that is not deleted (locked when `forUpdate`); NOT_FOUND otherwise. */
function groupRow(db: Db | Tx, clubId: number, id: number, forUpdate = false): Promise<GroupRow> {
  return scoped(db, clubId).one(groups, id, 'group', { live: true, forUpdate });
}

async function loadGroup(db: Db | Tx, clubId: number, row: GroupRow): Promise<Group> {
  const [rows, counts] = await Promise.all([scheduleRows(db, clubId, [row.id]), clientCounts(db, clubId, [row.id])]);
  return presentGroup(row, rows, counts.get(row.id) ?? 0);
}

/**
 * The club's groups that are not deleted, by name, each with its schedule and
 * client count (GET /api/Group).
 */
export async function listGroups(db: Db, clubId: number): Promise<{ items: Group[]; total: number }> {
  const rows = await db
    .select()
    .from(groups)
    .where(scoped(db, clubId).live(groups))
    .orderBy(asc(groups.name), asc(groups.id));
  const ids = rows.map((r) => r.id);
  const [sched, counts] = await Promise.all([scheduleRows(db, clubId, ids), clientCounts(db, clubId, ids)]);
  const byGroup = new Map<number, ScheduleDbRow[]>();
  for (const s of sched) {
    const list = byGroup.get(s.groupId as number) ?? [];
    list.push(s);
    byGroup.set(s.groupId as number, list);
  }
  const items = rows.map((r) => presentGroup(r, byGroup.get(r.id) ?? [], counts.get(r.id) ?? 0));
  return { items, total: items.length };
}

/**
 * One group of the club with its schedule rows in list order (GET /api/Group/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted group of this club
 */
export async function getGroup(db: Db, clubId: number, id: number): Promise<Group> {
  return loadGroup(db, clubId, await groupRow(db, clubId, id));
}

/**
 * The schedule rows of one group, in list order (GET /api/Schedule/GetByGroupId/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted group of this club
 */
export async function getGroupSchedule(db: Db, clubId: number, groupId: number): Promise<ScheduleRow[]> {
  await groupRow(db, clubId, groupId);
  return (await scheduleRows(db, clubId, [groupId])).map(presentScheduleRow);
}

/** Field errors of schedule rows: impossible dates, and terminals that are not this club's. */
async function scheduleErrors(tx: Tx, clubId: number, rows: ScheduleRowInput[]): Promise<FieldError[]> {
  const errors = rows.flatMap((r, i) => dateErrors(r, ['fromDate', 'toDate'], `schedule.${i}`));
  const wanted = [...new Set(rows.map((r) => r.terminalId).filter((t): t is number => t != null))];
  if (wanted.length > 0) {
    const found = await tx
      .select({ id: terminals.id })
      .from(terminals)
      .where(scoped(tx, clubId).live(terminals, inArray(terminals.id, wanted)));
    const ok = new Set(found.map((t) => t.id));
    rows.forEach((r, i) => {
      if (r.terminalId != null && !ok.has(r.terminalId))
        errors.push({ path: `schedule.${i}.terminalId`, message: 'unknownTerminal' });
    });
  }
  return errors;
}

/**
 * Replaces a group's schedule rows with `rows`, in order (sortOrder = index).
 * A row whose id is already one of this group's rows keeps its id; any other
 * row (new, or copied from another group) is inserted with a new id; rows of
 * the group not in the list are removed.
 */
async function replaceSchedule(tx: Tx, clubId: number, groupId: number, rows: ScheduleRowInput[]): Promise<void> {
  const existing = await tx
    .select({ id: schedules.id })
    .from(schedules)
    .where(scoped(tx, clubId).where(schedules, eq(schedules.groupId, groupId)));
  const own = new Set(existing.map((r) => r.id));
  const kept: number[] = [];
  for (const [i, { id, ...fields }] of rows.entries()) {
    const values = { ...fields, clubId, groupId, sortOrder: i };
    if (id != null && own.has(id) && !kept.includes(id)) {
      await tx.update(schedules).set(values).where(eq(schedules.id, id));
      kept.push(id);
    } else {
      await tx.insert(schedules).values(values);
    }
  }
  const gone = existing.map((r) => r.id).filter((id) => !kept.includes(id));
  if (gone.length > 0) {
    await tx.delete(scheduleToGroup).where(inArray(scheduleToGroup.scheduleId, gone));
    await tx.delete(schedules).where(and(eq(schedules.groupId, groupId), inArray(schedules.id, gone)));
  }
}

/**
 * Creates a group of the caller's club with its schedule rows, in one
 * transaction (POST /api/Group; seed 001 §4 "schedule edits are saved only
 * when the group is saved"). Money fields in minor units.
 * @throws AppError VALIDATION_ERROR (400) for a schedule row naming another club's terminal, an impossible date or an out-of-range number
 */
export async function createGroup(db: Db, actor: Actor, input: GroupInput): Promise<Group> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    assertValid(int32Errors(input)); // before any query uses the numbers
    assertValid(await scheduleErrors(tx, clubId, input.schedule));
    const { schedule, ...fields } = input;
    const [row] = await tx
      .insert(groups)
      .values({ ...fields, clubId })
      .returning();
    await replaceSchedule(tx, clubId, row.id, schedule);
    const created = await loadGroup(tx, clubId, row);
    await audit(tx, actor, { action: 'create', entity: 'group', entityId: row.id, after: created });
    return created;
  });
}

/**
 * Changes the given fields of a group; `schedule`, when present, replaces
 * every row in the given order (PATCH /api/Group/{id}). One transaction.
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted group of this club
 * @throws AppError VALIDATION_ERROR (400) as for createGroup
 */
export async function updateGroup(db: Db, actor: Actor, id: number, patch: GroupPatch): Promise<Group> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await groupRow(tx, clubId, id, true);
    const before = await loadGroup(tx, clubId, row);
    const { schedule, ...fields } = patch;
    assertValid(int32Errors(patch));
    if (schedule) assertValid(await scheduleErrors(tx, clubId, schedule));
    if (Object.keys(fields).length > 0) await tx.update(groups).set(fields).where(eq(groups.id, id));
    if (schedule) await replaceSchedule(tx, clubId, id, schedule);
    const after = await getGroupIn(tx, clubId, id);
    await audit(tx, actor, { action: 'update', entity: 'group', entityId: id, before, after });
    return after;
  });
}

async function getGroupIn(tx: Tx, clubId: number, id: number): Promise<Group> {
  return loadGroup(tx, clubId, await groupRow(tx, clubId, id));
}

/**
 * Soft-deletes a group (DELETE /api/Group/{id}): it leaves the lists, its rows
 * and its clients' group id stay, so the change can be undone.
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted group of this club
 */
export async function deleteGroup(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await groupRow(tx, clubId, id, true);
    const before = await loadGroup(tx, clubId, row);
    await tx.update(groups).set({ deleted: true }).where(eq(groups.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'group', entityId: id, before });
    return { ok: true as const };
  });
}

/**
 * GET /api/Group/StateNow: every live group's entrance state at `now` by the domain's
 * groupStateAt (the gate's resolution: own rows, linked general rows ranked below them, the
 * group's own state when no row is in force, closed when the group does not allow entrance), at
 * the club's location. Three queries whatever the number of groups.
 */
export async function groupsStateNow(db: Db, clubId: number, now = new Date()): Promise<GroupsStateNow> {
  const s = scoped(db, clubId);
  const [club] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const loc = clubLocation(club);
  const live = await db.select().from(groups).where(s.live(groups));
  const own = await db
    .select()
    .from(schedules)
    .where(s.where(schedules, isNotNull(schedules.groupId)));
  const linked = await db
    .select({ groupId: scheduleToGroup.groupId, s: schedules })
    .from(scheduleToGroup)
    .innerJoin(schedules, eq(schedules.id, scheduleToGroup.scheduleId))
    .where(s.where(scheduleToGroup));
  const rowsOf = new Map<number, (ReturnType<typeof presentScheduleRow> & { general: boolean })[]>();
  const add = (groupId: number, row: ReturnType<typeof presentScheduleRow>, general: boolean) => {
    const list = rowsOf.get(groupId) ?? [];
    list.push({ ...row, general });
    rowsOf.set(groupId, list);
  };
  for (const r of own) add(r.groupId!, presentScheduleRow(r), false);
  for (const l of linked) add(l.groupId, presentScheduleRow(l.s), true);
  return {
    at: now.toISOString(),
    items: live.map((g) => {
      const st = groupStateAt(g, rowsOf.get(g.id) ?? [], now, loc);
      return { groupId: g.id, entranceState: st.entranceState, open: st.open };
    }),
  };
}
