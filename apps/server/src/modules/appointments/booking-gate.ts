import { and, eq, gt, lt, notInArray, sql } from 'drizzle-orm';
import { BookingSettings, bookingGateVerdict, type BookingGateVerdict } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { bookings, bookingSettings } from '../../db/schema.js';

/**
 * The gate's side of appointments (docs/appointments.md "At the gate"): for a member of a
 * "booking required" group, whether now is within the window around one of her bookings. Per
 * decision the cost is a map lookup: each club's rules and its bookings of the 26 hours around now
 * are read once into memory, and read again when a booking or the rules change on this instance
 * (invalidateBookingGate), when `now` leaves the loaded range, or after CACHE_MS (a change made on
 * another server instance reaches this one within that time).
 */

/** How long a club's loaded bookings serve the gate before they are read again (ms). */
export const CACHE_MS = 15_000;
const HALF_RANGE_MS = 13 * 3_600_000;

interface ClubGate {
  loadedAt: number;
  /** The instant the range is centred on (ms). */
  centre: number;
  required: Set<number>;
  window: { beforeMinutes: number; afterMinutes: number };
  /** Starts (ms) of each client's live bookings in the range. */
  starts: Map<number, number[]>;
}

/** Per database handle (tests run many databases in one process; club ids repeat across them). */
interface GateCache {
  cache: Map<number, ClubGate>;
  loading: Map<number, Promise<ClubGate>>;
  generation: number;
}
const perDb = new WeakMap<object, GateCache>();
function cacheOf(db: Db | Tx): GateCache {
  let c = perDb.get(db);
  if (!c) perDb.set(db, (c = { cache: new Map(), loading: new Map(), generation: 0 }));
  return c;
}

/** Forgets a club's loaded bookings: the next decision reads them anew. */
export function invalidateBookingGate(db: Db | Tx, clubId: number): void {
  const c = cacheOf(db);
  c.generation++;
  c.cache.delete(clubId);
  c.loading.delete(clubId);
}

async function load(db: Db | Tx, clubId: number, now: number): Promise<ClubGate> {
  const [row] = await db.select().from(bookingSettings).where(eq(bookingSettings.clubId, clubId));
  const s = BookingSettings.parse(row?.settings ?? {});
  const entry: ClubGate = {
    loadedAt: Date.now(),
    centre: now,
    required: new Set(s.requiredGroupIds),
    window: { beforeMinutes: s.gateBeforeMinutes, afterMinutes: s.gateAfterMinutes },
    starts: new Map(),
  };
  if (entry.required.size === 0) return entry;
  const rows = await db
    .select({ clientId: bookings.clientId, startsAt: bookings.startsAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.clubId, clubId),
        notInArray(bookings.status, ['cancelled', 'offered', 'noShow']),
        gt(bookings.startsAt, new Date(now - HALF_RANGE_MS)),
        lt(bookings.startsAt, new Date(now + HALF_RANGE_MS)),
      ),
    );
  for (const r of rows) {
    const list = entry.starts.get(r.clientId) ?? [];
    list.push(r.startsAt.getTime());
    entry.starts.set(r.clientId, list);
  }
  return entry;
}

/**
 * The gate's booking verdict for a client of a group at `at`: null when the group does not require
 * a booking (the gate decides as before), else inWindow, outsideWindow or noBooking
 * (domain bookingGateVerdict with the club's window).
 */
export async function bookingGateCheck(
  db: Db | Tx,
  clubId: number,
  clientId: number,
  groupId: number,
  at: Date,
): Promise<BookingGateVerdict | null> {
  const now = at.getTime();
  const store = cacheOf(db);
  const { cache, loading } = store;
  let entry = cache.get(clubId);
  if (!entry || Date.now() - entry.loadedAt > CACHE_MS || Math.abs(now - entry.centre) > 3_600_000) {
    let p = loading.get(clubId);
    if (!p) {
      const gen = store.generation;
      p = load(db, clubId, now).then((e) => {
        if (gen === store.generation) cache.set(clubId, e);
        if (loading.get(clubId) === p) loading.delete(clubId);
        return e;
      });
      const mine = p;
      mine.catch(() => {
        if (loading.get(clubId) === mine) loading.delete(clubId);
      });
      loading.set(clubId, p);
    }
    entry = await p;
  }
  if (!entry.required.has(groupId)) return null;
  return bookingGateVerdict(entry.starts.get(clientId) ?? [], now, entry.window);
}

/**
 * The gate's check-in (docs/appointments.md "At the gate"; issue 38 "quick check-in by card at the
 * terminal"): an admission of a member of a "booking required" group inside her booking's window
 * marks that booking (still `booked`, the one starting nearest to `at`) checked in at `at`, so the
 * attendant's evening moves without a touch. One UPDATE; nothing when none is booked in the
 * window (already checked in by the attendant, or an admission by another rule).
 * Returns the booking's id, or null.
 */
export async function checkInAtGate(db: Db | Tx, clubId: number, clientId: number, at: Date): Promise<number | null> {
  const w = cacheOf(db).cache.get(clubId)?.window ?? { beforeMinutes: 20, afterMinutes: 45 };
  const from = new Date(at.getTime() - w.afterMinutes * 60_000);
  const until = new Date(at.getTime() + w.beforeMinutes * 60_000);
  const [row] = await db
    .update(bookings)
    .set({ status: 'checkedIn', checkedInAt: at, remindDayAt: null, remindHourAt: null })
    .where(
      and(
        eq(bookings.clubId, clubId),
        sql`${bookings.id} = (select b.id from bookings b where b.club_id = ${clubId} and b.client_id = ${clientId}
          and b.status = 'booked' and b.starts_at >= ${from} and b.starts_at <= ${until}
          order by abs(extract(epoch from b.starts_at - ${at}::timestamptz)) limit 1)`,
      ),
    )
    .returning({ id: bookings.id });
  return row?.id ?? null;
}
