import {
  CalendarEvents,
  CalendarEventsQuery,
  CalendarFeedLink,
  CalendarFeedParams,
  CalendarFeedQuery,
  CalendarGroupHours,
  CalendarHoursQuery,
  CalendarOmer,
  CalendarOmerQuery,
  CalendarZmanim,
  CalendarZmanimQuery,
} from '../schemas/calendar.js';
import { z } from 'zod';
import { EmptyBody, routes } from './route.js';

/** Reading the calendar: its own flag roleViewCalendar (docs/calendar.md "Access"). */
const view = { permission: 'roleViewCalendar' } as const;

/**
 * The Jewish calendar of the club's location (issue 14 §2; seed 001 §9;
 * docs/calendar.md "The calendar API"). Rule failures are 400s with their
 * own codes (CALENDAR_*, errors.ts); unknown query options are ignored.
 */
export const calendar = routes(['calendar'], {
  /** Holidays, parsha, candle lighting, Omer, molad, daily learning… for a range, a year or a month. */
  events: {
    method: 'GET',
    path: '/api/Calendar/Events',
    query: CalendarEventsQuery,
    response: CalendarEvents,
    access: view,
  },
  /** The day's zmanim, Tachanun and holidays. */
  zmanim: {
    method: 'GET',
    path: '/api/Calendar/Zmanim',
    query: CalendarZmanimQuery,
    response: CalendarZmanim,
    access: view,
  },
  /** A day of the Omer count. */
  omer: { method: 'GET', path: '/api/Calendar/Omer', query: CalendarOmerQuery, response: CalendarOmer, access: view },
  /** Each live group's real opening hours per day (the printed month notice). */
  hours: {
    method: 'GET',
    path: '/api/Calendar/Hours',
    query: CalendarHoursQuery,
    response: z.array(CalendarGroupHours),
    access: view,
  },
  /** The club's feed link (null path before the first rotation). */
  feedLink: { method: 'GET', path: '/api/Calendar/Feed', response: CalendarFeedLink, access: view },
  /** A new feed token: the old link stops working at once. */
  rotateFeed: {
    method: 'POST',
    path: '/api/Calendar/Feed/Rotate',
    body: EmptyBody,
    response: CalendarFeedLink,
    access: { permission: 'roleEditGeneralSettings' },
  },
  /**
   * The iCalendar feed (text/calendar): the token in the path is the
   * credential (no session), so phone calendars can subscribe. `.ics` suffix.
   */
  feed: {
    method: 'GET',
    path: '/api/Calendar/Feed/:token',
    params: CalendarFeedParams,
    query: CalendarFeedQuery,
    access: { public: true },
    security: [],
  },
});
