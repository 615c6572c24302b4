import { asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  computeWeekPreview,
  GeneralScheduleInput,
  parseIsoDate,
  type GeneralSchedulePatch,
  type ScheduleWithLinks,
  type WeekPreview,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clubs, groups, schedules, scheduleToGroup, terminals } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { assertValid, dateErrors, int32Errors, isRealDate, validationError } from '../../lib/validation.js';
import { presentScheduleRow } from '../groups/groups.service.js';
import { clubLocation } from '../club/club.service.js';
import { clubToday } from '../clients/clients.service.js';

type ScheduleDbRow = typeof schedules.$inferSelect;

async function withLinks(db: Db | Tx, clubId: number, rows: ScheduleDbRow[]): Promise<ScheduleWithLinks[]> {
  const ids = rows.map((r) => r.id);
  const links =
    ids.length === 0
      ? []
      : await db
          .select({
            id: scheduleToGroup.id,
            scheduleId: scheduleToGroup.scheduleId,
            groupId: scheduleToGroup.groupId,
            groupName: groups.name,
          })
          .from(scheduleToGroup)
          .innerJoin(groups, eq(groups.id, scheduleToGroup.groupId))
          .where(
            scoped(db, clubId).where(
              scheduleToGroup,
              inArray(scheduleToGroup.scheduleId, ids),
              eq(groups.deleted, false),
            ),
          )
          .orderBy(asc(groups.name));
  return rows.map((r) => ({
    ...presentScheduleRow(r),
    groupId: r.groupId,
    links: links
      .filter((l) => l.scheduleId === r.id)
      .map((l) => ({ id: l.id, groupId: l.groupId, groupName: l.groupName })),
  }));
}

/**
 * The club's schedule rows (GET /api/Schedule): general rows and the rows of
 * non-deleted groups, or one group's rows with `groupId`; general rows carry
 * the groups they are linked to.
 */
export async function listSchedules(db: Db, clubId: number, groupId?: number): Promise<ScheduleWithLinks[]> {
  assertValid(int32Errors({ groupId }));
  const rows = await db
    .select({ s: schedules })
    .from(schedules)
    .leftJoin(groups, eq(groups.id, schedules.groupId))
    .where(
      scoped(db, clubId).where(
        schedules,
        groupId ? eq(schedules.groupId, groupId) : or(isNull(schedules.groupId), eq(groups.deleted, false)),
      ),
    )
    .orderBy(asc(schedules.groupId), asc(schedules.sortOrder), asc(schedules.id));
  return withLinks(
    db,
    clubId,
    rows.map((r) => r.s),
  );
}

/** The general schedules (GET /api/Schedule/GetGeneral): rows owned by no group, with their links. */
export async function listGeneralSchedules(db: Db, clubId: number): Promise<ScheduleWithLinks[]> {
  const rows = await db
    .select()
    .from(schedules)
    .where(scoped(db, clubId).where(schedules, isNull(schedules.groupId)))
    .orderBy(asc(schedules.sortOrder), asc(schedules.id));
  return withLinks(db, clubId, rows);
}

/** The club's schedule row `id`; NOT_FOUND otherwise. */
function scheduleRow(db: Db | Tx, clubId: number, id: number): Promise<ScheduleDbRow> {
  return scoped(db, clubId).one(schedules, id, 'schedule');
}

/**
 * One schedule row of the club with its links (GET /api/Schedule/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a schedule row of this club
 */
export async function getSchedule(db: Db, clubId: number, id: number): Promise<ScheduleWithLinks> {
  const [s] = await withLinks(db, clubId, [await scheduleRow(db, clubId, id)]);
  return s;
}

async function rowErrors(tx: Tx, clubId: number, input: GeneralScheduleInput): Promise<void> {
  assertValid(int32Errors(input));
  const errors = dateErrors(input, ['fromDate', 'toDate']);
  if (input.terminalId != null) {
    const [t] = await tx
      .select({ id: terminals.id })
      .from(terminals)
      .where(scoped(tx, clubId).live(terminals, eq(terminals.id, input.terminalId)));
    if (!t) errors.push({ path: 'terminalId', message: 'unknownTerminal' });
  }
  assertValid(errors);
}

/**
 * Creates a general schedule row (POST /api/Schedule): owned by no group,
 * placed last in the general list, linked to groups with POST /ScheduleToGroup.
 * @throws AppError VALIDATION_ERROR (400) for an impossible date or another club's terminal
 */
export async function createGeneralSchedule(
  db: Db,
  actor: Actor,
  input: GeneralScheduleInput,
): Promise<ScheduleWithLinks> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    await rowErrors(tx, clubId, input);
    const existing = await tx
      .select({ sortOrder: schedules.sortOrder })
      .from(schedules)
      .where(scoped(tx, clubId).where(schedules, isNull(schedules.groupId)));
    const sortOrder = existing.reduce((m, r) => Math.max(m, r.sortOrder + 1), 0);
    const { id: _ignored, ...fields } = input;
    const [row] = await tx
      .insert(schedules)
      .values({ ...fields, clubId, groupId: null, sortOrder })
      .returning();
    const [created] = await withLinks(tx, clubId, [row]);
    await audit(tx, actor, { action: 'create', entity: 'schedule', entityId: row.id, after: created });
    return created;
  });
}

async function generalRowForChange(tx: Tx, clubId: number, id: number): Promise<ScheduleDbRow> {
  const row = await scheduleRow(tx, clubId, id);
  if (row.groupId != null) {
    throw new AppError('SCHEDULE_OF_GROUP', 'This row belongs to a group: change it with the group');
  }
  return row;
}

/**
 * Changes a general schedule row (PATCH /api/Schedule/{id}): the given fields over the stored row, validated whole.
 * @throws AppError NOT_FOUND (404) when the id is not a schedule row of this club
 * @throws AppError SCHEDULE_OF_GROUP (409) for a group's own row (saved with its group, seed 001 §4)
 */
export async function updateGeneralSchedule(
  db: Db,
  actor: Actor,
  id: number,
  patch: GeneralSchedulePatch,
): Promise<ScheduleWithLinks> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await generalRowForChange(tx, clubId, id);
    const { id: _id, sortOrder: _s, ...stored } = presentScheduleRow(row);
    const parsed = GeneralScheduleInput.safeParse({ ...stored, ...patch });
    if (!parsed.success) {
      throw validationError(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    }
    const input = parsed.data;
    await rowErrors(tx, clubId, input);
    const [before] = await withLinks(tx, clubId, [row]);
    const { id: _ignored, ...fields } = input;
    await tx.update(schedules).set(fields).where(eq(schedules.id, id));
    const [after] = await withLinks(tx, clubId, [await scheduleRow(tx, clubId, id)]);
    await audit(tx, actor, { action: 'update', entity: 'schedule', entityId: id, before, after });
    return after;
  });
}

/**
 * Deletes a general schedule row and its links (DELETE /api/Schedule/{id}).
 * @throws AppError NOT_FOUND (404) / SCHEDULE_OF_GROUP (409) as for updateGeneralSchedule
 */
export async function deleteGeneralSchedule(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await generalRowForChange(tx, clubId, id);
    const [before] = await withLinks(tx, clubId, [row]);
    await tx.delete(scheduleToGroup).where(eq(scheduleToGroup.scheduleId, id));
    await tx.delete(schedules).where(eq(schedules.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'schedule', entityId: id, before });
    return { ok: true as const };
  });
}

/**
 * Links a general schedule to a group (POST /api/ScheduleToGroup). Linking
 * twice answers the existing link. The gate ranks linked rows below the group's own.
 * @throws AppError VALIDATION_ERROR (400) when the schedule is not a general row of this club or the group not a live group of it
 */
export async function linkScheduleToGroup(
  db: Db,
  actor: Actor,
  body: { scheduleId: number; groupId: number },
): Promise<{ id: number; scheduleId: number; groupId: number }> {
  const clubId = actor.clubId;
  assertValid(int32Errors(body));
  return db.transaction(async (tx) => {
    const [s] = await tx
      .select({ id: schedules.id })
      .from(schedules)
      .where(scoped(tx, clubId).where(schedules, eq(schedules.id, body.scheduleId), isNull(schedules.groupId)));
    const [g] = await tx
      .select({ id: groups.id })
      .from(groups)
      .where(scoped(tx, clubId).live(groups, eq(groups.id, body.groupId)))
      .for('update');
    const errors = [];
    if (!s) errors.push({ path: 'scheduleId', message: 'unknownSchedule' });
    if (!g) errors.push({ path: 'groupId', message: 'unknownGroup' });
    if (errors.length > 0) throw validationError(errors);
    const [existing] = await tx
      .select()
      .from(scheduleToGroup)
      .where(
        scoped(tx, clubId).where(
          scheduleToGroup,
          eq(scheduleToGroup.scheduleId, body.scheduleId),
          eq(scheduleToGroup.groupId, body.groupId),
        ),
      );
    if (existing) return { id: existing.id, scheduleId: existing.scheduleId, groupId: existing.groupId };
    const [row] = await tx
      .insert(scheduleToGroup)
      .values({ clubId, ...body })
      .returning();
    const link = { id: row.id, scheduleId: row.scheduleId, groupId: row.groupId };
    await audit(tx, actor, { action: 'create', entity: 'scheduleToGroup', entityId: row.id, after: link });
    return link;
  });
}

/**
 * Removes a link (DELETE /api/ScheduleToGroup/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a link of this club
 */
export async function unlinkScheduleToGroup(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await scoped(tx, clubId).remove(scheduleToGroup, id);
    if (!row) throw notFound('link');
    await audit(tx, actor, {
      action: 'delete',
      entity: 'scheduleToGroup',
      entityId: id,
      before: { id: row.id, scheduleId: row.scheduleId, groupId: row.groupId },
    });
    return { ok: true as const };
  });
}

/**
 * The week preview of a group (GET /api/Group/{id}/WeekPreview): seven days
 * from `from` (default today in the club's zone) at the club's location,
 * computed by the domain's computeWeekPreview from the group's rows and its
 * linked general rows.
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted group of this club
 */
export async function weekPreview(
  db: Db,
  clubId: number,
  groupId: number,
  q: { from?: string; terminalId?: number; lang: 'he' | 'en' },
): Promise<WeekPreview> {
  if (q.from && !isRealDate(q.from)) throw validationError([{ path: 'from', message: 'invalidDate' }]);
  const s = scoped(db, clubId);
  const group = await s.one(groups, groupId, 'group', { live: true });
  const [club] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const loc = clubLocation(club);
  const own = await db
    .select()
    .from(schedules)
    .where(s.where(schedules, eq(schedules.groupId, groupId)));
  const linked = await db
    .select({ s: schedules })
    .from(scheduleToGroup)
    .innerJoin(schedules, eq(schedules.id, scheduleToGroup.scheduleId))
    .where(s.where(scheduleToGroup, eq(scheduleToGroup.groupId, groupId)));
  const from = parseIsoDate(q.from ?? (await clubToday(db, clubId)));
  const rows = [
    ...own.map((r) => ({ ...presentScheduleRow(r), general: false })),
    ...linked.map((l) => ({ ...presentScheduleRow(l.s), general: true })),
  ];
  return {
    groupId,
    location: loc.name,
    defaultEntranceState: group.entranceState,
    days: computeWeekPreview({
      from,
      loc,
      rows,
      newDayStartHour: group.newDayStartHour,
      terminalId: q.terminalId ?? null,
      locale: q.lang,
    }),
  };
}
