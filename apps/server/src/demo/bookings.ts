import { addDays, isoDate, JERUSALEM, planReminders, type LocalDate } from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import { bookingResources, bookings, bookingSettings, bookingWaitlist } from '../db/schema.js';
import { listSlots } from '../modules/appointments/appointments.service.js';
import { applyBookingRetention } from '../modules/appointments/appointments.jobs.js';
import type { DemoClient } from './club-data.js';
import { Rng } from './random.js';

/** Days of past bookings the demo writes (beyond the 30 days of retention: the older ones become counts). */
export const DEMO_BOOKING_PAST_DAYS = 42;
/** Days ahead (from today) with bookings: tonight and the coming week. */
export const DEMO_BOOKING_AHEAD_DAYS = 7;

/** The demo's rooms for the women's group (docs/demo-club.md "Immersion appointments"). */
const ROOMS = [
  { name: 'חדר הכנה 1 — אמבטיה', kind: 'prepBath', serviceMinutes: 45, bufferMinutes: 15 },
  { name: 'חדר הכנה 2 — אמבטיה', kind: 'prepBath', serviceMinutes: 45, bufferMinutes: 15 },
  { name: 'חדר הכנה 3 — מקלחת', kind: 'prepShower', serviceMinutes: 30, bufferMinutes: 10 },
  { name: 'חדר הכנה 4 — מקלחת', kind: 'prepShower', serviceMinutes: 30, bufferMinutes: 10 },
  { name: 'בור טבילה', kind: 'pool', serviceMinutes: 10, bufferMinutes: 5 },
] as const;

/** What {@link createDemoBookings} wrote. */
export interface DemoBookings {
  rooms: number;
  bookings: number;
  /** Bookings folded into counts by retention (older than 30 days). */
  folded: number;
}

/**
 * The demo club's immersion appointments (issue 38, docs/appointments.md): five rooms for the
 * women's group (two bath and two shower preparation rooms, one pool), the default booking rules
 * (no group requires a booking, so the year of history's entrances stay as they are), and
 * bookings at the real slots of the women's evenings (listSlots: computeSlots on the group's
 * nightfall windows) — the last {@link DEMO_BOOKING_PAST_DAYS} days with their outcomes (mostly
 * done, some no-shows and cancellations, a few taken from the waitlist), tonight and the coming
 * week booked ahead with their reminders planned — and the waitlist: past entries with their
 * outcomes and one client waiting for tomorrow's bath room. Then retention runs, so the days past
 * 30 are counts only, as on a club that has run for weeks. Deterministic: its own generator from
 * `seed` (the history's is not touched), the women clients in their order.
 */
export async function createDemoBookings(
  db: Db | Tx,
  clubId: number,
  womenGroupId: number,
  clients: readonly DemoClient[],
  today: LocalDate,
  now: Date,
  seed: number,
): Promise<DemoBookings> {
  const rng = new Rng(seed ^ 0x38);
  const women = clients.filter((c) => c.kind === 'women' && c.active).map((c) => c.id);
  if (women.length === 0) return { rooms: 0, bookings: 0, folded: 0 };
  await db.insert(bookingSettings).values({ clubId, settings: {} });
  const rooms = await db
    .insert(bookingResources)
    .values(ROOMS.map((r) => ({ clubId, ...r, groupIds: [womenGroupId] })))
    .returning({ id: bookingResources.id });
  const d = db as Db;

  type Row = typeof bookings.$inferInsert;
  const rows: Row[] = [];
  /** Waitlist entries with the index of their booking in `rows` (-1: none). */
  const waiting: { entry: typeof bookingWaitlist.$inferInsert; row: number }[] = [];
  const from = addDays(today, -DEMO_BOOKING_PAST_DAYS);
  const total = DEMO_BOOKING_PAST_DAYS + DEMO_BOOKING_AHEAD_DAYS;
  let next = 0;
  const client = () => women[(next++ * 7 + rng.int(0, 3)) % women.length];
  for (let day = 0; day < total; day += 7) {
    const slots = await listSlots(
      d,
      clubId,
      { from: isoDate(addDays(from, day)), days: 7, groupId: womenGroupId },
      now,
    );
    for (const sd of slots.days) {
      const ahead = sd.date >= isoDate(today);
      if (sd.date > isoDate(addDays(today, DEMO_BOOKING_AHEAD_DAYS - 1))) continue;
      for (const s of sd.slots) {
        const pool = s.kind === 'pool';
        // Busier evenings on Saturday night and before Shabbat; fewer ahead than past.
        const busy = sd.weekday === 6 || sd.weekday === 5 ? 0.15 : 0;
        const p = (pool ? 0.3 : 0.55) + busy - (ahead ? 0.2 : 0);
        if (!rng.chance(p)) continue;
        const startsAt = new Date(s.startsAt);
        const endsAt = new Date(s.endsAt);
        const room = ROOMS[rooms.findIndex((r) => r.id === s.resourceId)];
        const blockedUntil = new Date(endsAt.getTime() + room.bufferMinutes * 60_000);
        const past = startsAt.getTime() < now.getTime();
        const roll = rng.next();
        const status = !past ? 'booked' : roll < 0.83 ? 'done' : roll < 0.91 ? 'noShow' : 'cancelled';
        const fromWaitlist = past && status === 'done' && rng.chance(0.04);
        const reminders = past ? [] : planReminders(startsAt, now, JERUSALEM);
        const base = { clubId, resourceId: s.resourceId, startsAt, endsAt, blockedUntil };
        // A slot freed and offered from the waitlist: sometimes a first offer expired unanswered.
        if (fromWaitlist && rng.chance(0.5)) {
          const offered = new Date(startsAt.getTime() - rng.int(2, 20) * 3_600_000);
          const clientId = client();
          waiting.push({
            entry: { clubId, clientId, date: sd.date, kind: s.kind, status: 'expired' },
            row: rows.length,
          });
          rows.push({
            ...base,
            clientId,
            status: 'cancelled',
            source: 'waitlist',
            offerExpiresAt: new Date(offered.getTime() + 3_600_000),
            cancelledAt: new Date(offered.getTime() + 3_600_000),
            createdAt: offered,
          });
        }
        const clientId = client();
        if (fromWaitlist)
          waiting.push({
            entry: { clubId, clientId, date: sd.date, kind: s.kind, status: 'booked' },
            row: rows.length,
          });
        rows.push({
          ...base,
          clientId,
          status,
          source: fromWaitlist ? 'waitlist' : rng.chance(0.6) ? 'member' : 'staff',
          checkedInAt: status === 'done' ? startsAt : null,
          cancelledAt: status === 'cancelled' ? new Date(startsAt.getTime() - rng.int(3, 48) * 3_600_000) : null,
          remindDayAt: reminders.find((r) => r.kind === 'day')?.at ?? null,
          remindHourAt: reminders.find((r) => r.kind === 'hour')?.at ?? null,
          createdAt: new Date(Math.min(now.getTime(), startsAt.getTime()) - rng.int(1, 6) * 86_400_000),
        });
        // Another client who waited that evening and never got an offer.
        if (fromWaitlist && rng.chance(0.5))
          waiting.push({
            entry: { clubId, clientId: client(), date: sd.date, kind: s.kind, status: 'waiting' },
            row: -1,
          });
      }
    }
  }
  const ids = rows.length ? await db.insert(bookings).values(rows).returning({ id: bookings.id }) : [];
  const entries = waiting.map((w) => ({ ...w.entry, bookingId: w.row >= 0 ? ids[w.row].id : null }));
  // One client waiting for tomorrow's bath room: the next cancellation goes to her.
  entries.push({
    clubId,
    clientId: client(),
    date: isoDate(addDays(today, 1)),
    kind: 'prepBath',
    status: 'waiting',
    bookingId: null,
  });
  await db.insert(bookingWaitlist).values(entries);
  const folded = await applyBookingRetention(d, clubId, now);
  return { rooms: rooms.length, bookings: rows.length, folded };
}
