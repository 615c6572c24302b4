import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import ical, { ICalCalendarMethod } from 'ical-generator';
import {
  CalendarRuleError,
  EntranceState,
  calendarFeedEntries,
  addDays,
  calendarEvents,
  computeWeekPreview,
  isRealDate,
  dailyZmanim,
  localToInstant,
  omerDay,
  parseIsoDate,
  readCalendarOptions,
  type CalendarEvents,
  type CalendarEventsQuery,
  type CalendarFeedLink,
  type CalendarGroupHours,
  type CalendarOmer,
  type CalendarZmanim,
  type CalendarZmanimQuery,
  type ClubLocation,
  type LocalDate,
  type PreviewRow,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { clubs, groups, schedules, scheduleToGroup } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { clubLocation } from '../club/club.service.js';
import { clubToday } from '../clients/clients.service.js';
import { presentScheduleRow } from '../groups/groups.service.js';

/**
 * The calendar API (issue 14 §2; docs/calendar.md "The calendar API"): the
 * domain's hebcal computations at the club's location, and the club's
 * iCalendar feed.
 */

/** A broken calendar rule as the API's error: a 400 with its own code and the option at fault. */
function asAppError(e: unknown): unknown {
  if (e instanceof CalendarRuleError) return new AppError(e.code, e.message, { field: e.field });
  return e;
}

async function clubPlace(db: Db, clubId: number): Promise<{ loc: ClubLocation; today: LocalDate }> {
  const [row] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  if (!row) throw notFound('club');
  return { loc: clubLocation(row), today: parseIsoDate(await clubToday(db, clubId)) };
}

/**
 * Events for a range, a year or a month (GET /api/Calendar/Events).
 * @throws AppError CALENDAR_* (400) for a broken rule of seed 001 §5 (calendar-events.ts readCalendarOptions)
 */
export async function eventsFor(db: Db, clubId: number, q: CalendarEventsQuery): Promise<CalendarEvents> {
  const { loc, today } = await clubPlace(db, clubId);
  try {
    return calendarEvents(readCalendarOptions(q, loc, today));
  } catch (e) {
    throw asAppError(e);
  }
}

/**
 * The day's zmanim, Tachanun and holidays (GET /api/Calendar/Zmanim).
 * @throws AppError CALENDAR_* (400)
 */
export async function zmanimFor(db: Db, clubId: number, q: CalendarZmanimQuery): Promise<CalendarZmanim> {
  const { loc, today } = await clubPlace(db, clubId);
  try {
    return dailyZmanim(q, loc, today);
  } catch (e) {
    throw asAppError(e);
  }
}

/**
 * A day of the Omer (GET /api/Calendar/Omer).
 * @throws AppError CALENDAR_INVALID_OMER_DAY, CALENDAR_INVALID_YEAR, CALENDAR_UNKNOWN_LOCALE (400)
 */
export async function omerFor(
  db: Db,
  clubId: number,
  q: { day: string; year?: string; locale?: string },
): Promise<CalendarOmer> {
  const { today } = await clubPlace(db, clubId);
  try {
    return omerDay(q, today);
  } catch (e) {
    throw asAppError(e);
  }
}

const feedPath = (token: string | null): CalendarFeedLink => ({
  path: token ? `/api/Calendar/Feed/${token}.ics` : null,
});

/** The club's feed link (GET /api/Calendar/Feed); null path until staff create one. */
export async function feedLink(db: Db, clubId: number): Promise<CalendarFeedLink> {
  const [row] = await db.select({ token: clubs.calendarFeedToken }).from(clubs).where(eq(clubs.id, clubId));
  if (!row) throw notFound('club');
  return feedPath(row.token);
}

/**
 * A new feed token (POST /api/Calendar/Feed/Rotate): 256 random bits; the
 * previous link stops working at once. An audit row records the rotation
 * (never the token).
 */
export async function rotateFeed(db: Db, actor: Actor): Promise<CalendarFeedLink> {
  const token = randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(clubs)
      .set({ calendarFeedToken: token })
      .where(eq(clubs.id, actor.clubId))
      .returning({ id: clubs.id });
    if (!row) throw notFound('club');
    await audit(tx, actor, { action: 'update', entity: 'calendarFeed', entityId: row.id, after: { rotated: true } });
    return feedPath(token);
  });
}

/** Feed requests per minute from one address (a phone refreshes a subscription every few hours). */
export const FEED_RATE_PER_MINUTE = 30;

/** Days of opening hours in the feed, from today (the schedule rows can change; phones refresh the feed). */
export const FEED_HOURS_DAYS = 56;
/** Holidays and candle lighting in the feed: from this many days back to a year ahead. */
export const FEED_PAST_DAYS = 30;
export const FEED_AHEAD_DAYS = 365;

async function openingRows(db: Db, clubId: number) {
  const s = scoped(db, clubId);
  const live = await db
    .select()
    .from(groups)
    .where(and(eq(groups.clubId, clubId), eq(groups.deleted, false)));
  const ids = live.map((g) => g.id);
  if (ids.length === 0) return [];
  const own = await db
    .select()
    .from(schedules)
    .where(s.where(schedules, inArray(schedules.groupId, ids)));
  const linked = await db
    .select({ groupId: scheduleToGroup.groupId, s: schedules })
    .from(scheduleToGroup)
    .innerJoin(schedules, eq(schedules.id, scheduleToGroup.scheduleId))
    .where(s.where(scheduleToGroup, inArray(scheduleToGroup.groupId, ids)));
  return live.map((g) => ({
    group: g,
    rows: [
      ...own.filter((r) => r.groupId === g.id).map((r) => ({ ...presentScheduleRow(r), general: false })),
      ...linked.filter((l) => l.groupId === g.id).map((l) => ({ ...presentScheduleRow(l.s), general: true })),
    ] as PreviewRow[],
  }));
}

/**
 * The club's iCalendar feed (GET /api/Calendar/Feed/{token}.ics, public: the
 * token is the credential): holidays, candle lighting and havdalah at the
 * club's location from FEED_PAST_DAYS back to FEED_AHEAD_DAYS ahead, and each
 * live group's real opening windows for FEED_HOURS_DAYS from today (the week
 * preview's computation, so the gate's rules: the lower row wins, halachic
 * times at the location, holiday eves). Closed windows are left out.
 * @throws AppError NOT_FOUND (404) for an unknown or rotated token
 */
export async function feedIcs(db: Db, tokenWithSuffix: string, lang: 'he' | 'en'): Promise<string> {
  const token = tokenWithSuffix.replace(/\.ics$/i, '');
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw notFound('feed');
  const [club] = await db
    .select({ id: clubs.id, name: clubs.name, location: clubs.location })
    .from(clubs)
    .where(eq(clubs.calendarFeedToken, token));
  if (!club) throw notFound('feed');
  const loc = clubLocation(club);
  const today = parseIsoDate(await clubToday(db, club.id));
  const cal = ical({ name: club.name, prodId: { company: 'venue-console', product: 'calendar' } });
  cal.method(ICalCalendarMethod.PUBLISH);
  for (const e of calendarFeedEntries(loc, lang, addDays(today, -FEED_PAST_DAYS), addDays(today, FEED_AHEAD_DAYS))) {
    const start = e.day ? new Date(Date.UTC(e.day.year, e.day.month - 1, e.day.day)) : e.instant!;
    cal.createEvent({
      id: `${e.uid}@club-${club.id}`,
      start,
      allDay: e.day !== null,
      summary: e.summary,
      ...(e.url ? { url: e.url } : {}),
    });
  }
  for (const { group, rows } of await openingRows(db, club.id)) {
    const days = computeWeekPreview({
      from: today,
      loc,
      rows,
      newDayStartHour: group.newDayStartHour,
      days: FEED_HOURS_DAYS,
      locale: lang,
    });
    for (const d of days) {
      for (const w of d.windows) {
        if (w.entranceState === EntranceState.Closed) continue;
        const date = parseIsoDate(d.date);
        cal.createEvent({
          id: `hours-${group.id}-${d.date}-${w.from}@club-${club.id}`,
          start: localToInstant(date, w.from * 60, loc.timeZone),
          end: localToInstant(date, w.to * 60, loc.timeZone),
          summary: w.displayName ? `${group.name} · ${w.displayName}` : group.name,
          categories: [{ name: 'hours' }],
        });
      }
    }
  }
  // RFC 5545 §3.1: every content line ends with CRLF, the last one too (ical-generator leaves it bare).
  const text = cal.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** At most this many days of opening hours in one answer (a printed month and its edges). */
export const HOURS_MAX_DAYS = 62;

/**
 * Each live group's opening windows per day from `start` to `end` at the
 * club's location (GET /api/Calendar/Hours; the week preview's computation,
 * so the gate's rules). Closed windows are left out.
 * @throws AppError CALENDAR_INVALID_DATE (400) for a bad date or end before start, CALENDAR_RANGE_TOO_LONG (400) beyond HOURS_MAX_DAYS
 */
export async function hoursFor(
  db: Db,
  clubId: number,
  q: { start: string; end: string },
): Promise<CalendarGroupHours[]> {
  for (const [field, v] of [
    ['start', q.start],
    ['end', q.end],
  ] as const) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || !isRealDate(v)) throw new AppError('CALENDAR_INVALID_DATE', field, { field });
  }
  const days = (Date.parse(q.end) - Date.parse(q.start)) / 864e5 + 1;
  if (days < 1) throw new AppError('CALENDAR_INVALID_DATE', 'end', { field: 'end' });
  if (days > HOURS_MAX_DAYS) throw new AppError('CALENDAR_RANGE_TOO_LONG', 'end', { field: 'end' });
  const { loc } = await clubPlace(db, clubId);
  return (await openingRows(db, clubId)).map(({ group, rows }) => ({
    groupId: group.id,
    groupName: group.name,
    days: computeWeekPreview({
      from: parseIsoDate(q.start),
      loc,
      rows,
      newDayStartHour: group.newDayStartHour,
      days,
    }).map((d) => ({
      date: d.date,
      windows: d.windows
        .filter((w) => w.entranceState !== EntranceState.Closed)
        .map((w) => ({ from: w.from, to: w.to, entranceState: w.entranceState, displayName: w.displayName })),
    })),
  }));
}
