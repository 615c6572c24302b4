import { sql, type SQL } from 'drizzle-orm';
import { addDays, isoDate, parseIsoDate, weekdayOf } from '@venue/domain';
import type { ReportContext } from './framework.js';
import { toInstants } from './report-range.js';

/**
 * SQL of the attendance reports (docs/attendance.md "Reports"): closed shifts
 * (entry and exit) by the club's local day of their entry — a shift over
 * midnight belongs to the day it began — with their night minutes (22:00–06:00
 * local) and Shabbat minutes (Friday 18:00 to Saturday 19:00 local, a fixed
 * window: docs/attendance.md), then one row per employee and day.
 */

/** Minutes of a shift `l` inside the local windows [g + fromH, g + toH) over the days g of the shift (and before). */
function windowMinutes(tz: string, fromH: number, toH: number, daysBefore: number, onlyDow?: number): SQL {
  const entry = sql`(l.entry_at at time zone ${tz})`;
  const exit = sql`(l.exit_at at time zone ${tz})`;
  return sql`(select coalesce(sum(greatest(0, floor(extract(epoch from
      (least(${exit}, g + make_interval(hours => ${toH})) - greatest(${entry}, g + make_interval(hours => ${fromH})))) / 60))), 0)
    from generate_series((${entry}::date - ${daysBefore}::int)::timestamp, ${exit}::date::timestamp, interval '1 day') g
    ${onlyDow === undefined ? sql`` : sql`where extract(dow from g) = ${onlyDow}`})::int`;
}

/** One row per closed shift of the club that began in [start, end): client_id, day, entry_at, exit_at, minutes, night, shabbat. */
function shifts(c: ReportContext, start: Date, end: Date): SQL {
  const tz = c.range.timeZone;
  return sql`(select l.client_id, (l.entry_at at time zone ${tz})::date as day, l.entry_at, l.exit_at,
      floor(extract(epoch from (l.exit_at - l.entry_at)) / 60)::int as minutes,
      ${windowMinutes(tz, 22, 30, 1)} as night,
      ${windowMinutes(tz, 18, 43, 6, 5)} as shabbat
    from attendance_logs l
    where l.club_id = ${c.clubId} and l.entry_at is not null and l.exit_at is not null
      and l.entry_at >= ${start} and l.entry_at < ${end}
      ${c.q.clientId ? sql`and l.client_id = ${c.q.clientId}` : sql``})`;
}

/**
 * One row per employee and local day whose shifts began in [start, end):
 * client_id, day, m (minutes worked), night, shabbat, first_in, last_out, shifts.
 */
export function attendanceDays(c: ReportContext, start: Date = c.range.start, end: Date = c.range.end): SQL {
  return sql`(select s.client_id, s.day, sum(s.minutes)::int as m, sum(s.night)::int as night,
      sum(s.shabbat)::int as shabbat, min(s.entry_at) as first_in, max(s.exit_at) as last_out, count(*)::int as shifts
    from ${shifts(c, start, end)} s group by s.client_id, s.day)`;
}

/**
 * The payroll of each employee for the period (docs/attendance.md "Payroll";
 * Hours of Work and Rest Law 1951 and the 2018 extension order): per day, the
 * regular part is at most 8.6 h (516 min) in a 5-day week or 8 h (480) in a
 * 6-day week, 7 h (420) on a day with at least 2 night hours; per week
 * (Sunday–Saturday) regular minutes beyond the weekly limit (42 h) become
 * overtime of the day they fall on. A day's overtime pays 125% for its first
 * tier (2 h) and 150% beyond. Days of the week before the period count toward
 * the weekly limit only. Settings from the club (ClubSettings payroll*).
 * Columns: client_id, days, m, regular, ot125, ot150, night, shabbat.
 */
export function payrollRows(c: ReportContext): SQL {
  const from = parseIsoDate(c.range.from);
  const weekStart = isoDate(addDays(from, -weekdayOf(from)));
  const widened = toInstants({ from: weekStart, to: c.range.to }, c.range.timeZone);
  const st = sql`(select coalesce((settings->>'payrollWorkWeekDays')::int, 5) as wd,
      coalesce((settings->>'payrollWeeklyMinutes')::int, 2520) as wk,
      coalesce((settings->>'payrollOvertimeFirstTierMinutes')::int, 120) as tier
    from clubs where id = ${c.clubId})`;
  return sql`(with w as (
      select d.*, st.wk, st.tier, (d.day - extract(dow from d.day)::int) as week,
        least(d.m, case when d.night >= 120 then 420 when st.wd = 6 then 480 else 516 end) as reg_d
      from ${attendanceDays(c, widened.start, c.range.end)} d cross join ${st} st
    ), x as (
      select w.*, greatest(0, least(w.reg_d,
        sum(w.reg_d) over (partition by w.client_id, w.week order by w.day) - w.wk)) as wx
      from w
    ), y as (
      select x.*, (x.m - x.reg_d + x.wx) as ot, least(x.m - x.reg_d + x.wx, x.tier) as ot125 from x
    )
    select y.client_id, count(*)::int as days, sum(y.m)::int as m, sum(y.reg_d - y.wx)::int as regular,
      sum(y.ot125)::int as ot125, sum(y.ot - y.ot125)::int as ot150,
      sum(y.night)::int as night, sum(y.shabbat)::int as shabbat
    from y where y.day >= ${c.range.from}::date
    group by y.client_id)`;
}
