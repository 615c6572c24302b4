import { and, eq, gt, lt, notInArray } from 'drizzle-orm';
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
  /** Starts (ms) of each client's bookings still `booked` (not yet checked in): what checkInAtGate may update. */
  booked: Map<number, number[]>;
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
    booked: new Map(),
  };
  if (entry.required.size === 0) return entry;
  const rows = await db
    .select({ clientId: bookings.clientId, startsAt: bookings.startsAt, status: bookings.status })
    .from(bookings)
    .where(
      and(
        eq(bookings.clubId, clubId),
        notInArray(bookings.status, ['cancelled', 'offered', 'noShow']),
        gt(bookings.startsAt, new Date(now - HALF_RANGE_MS)),
        lt(bookings.startsAt, new Date(now + HALF_RANGE_MS)),
      ),
    );
  const add = (map: Map<number, number[]>, clientId: number, at: number) => {
    const list = map.get(clientId) ?? [];
    list.push(at);
    map.set(clientId, list);
  };
  for (const r of rows) {
    add(entry.starts, r.clientId, r.startsAt.getTime());
    if (r.status === 'booked') add(entry.booked, r.clientId, r.startsAt.getTime());
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
 * The statement that checks a booking in (the gate's batched one, modules/gate/gate-batch.ts
 * `checkIn`, passed in by the gate: this area does not import the gate's). Answers the booking
 * checked in, or null when none of hers was `booked` from `from` to `until`.
 */
export type CheckInStatement = (item: {
  clubId: number;
  clientId: number;
  at: Date;
  from: Date;
  until: Date;
}) => Promise<{ id: number; startsAt: Date } | null>;

/**
 * The gate's check-in (docs/appointments.md "At the gate"; issue 38 "quick check-in by card at the
 * terminal"): an admission of a member of a "booking required" group inside her booking's window
 * marks that booking (still `booked`, the one starting nearest to `at`) checked in at `at`, so the
 * attendant's evening moves without a touch. One UPDATE through `checkIn` (the gate batches it with
 * the other admissions' check-ins), and only when the loaded bookings hold one still `booked` in
 * the window: her second and later admissions of the evening cost no write
 * (bench/appointments.bench.mjs). Nothing when none is booked in the window (already checked in
 * by the attendant, or an admission by another rule).
 * Returns the booking's id, or null.
 */
export async function checkInAtGate(
  db: Db | Tx,
  clubId: number,
  clientId: number,
  at: Date,
  checkIn: CheckInStatement,
): Promise<number | null> {
  const entry = cacheOf(db).cache.get(clubId);
  const w = entry?.window ?? { beforeMinutes: 20, afterMinutes: 45 };
  const from = new Date(at.getTime() - w.afterMinutes * 60_000);
  const until = new Date(at.getTime() + w.beforeMinutes * 60_000);
  const inWindow = (t: number) => t >= from.getTime() && t <= until.getTime();
  const pending = entry?.booked.get(clientId);
  if (entry && !pending?.some(inWindow)) return null;
  const row = await checkIn({ clubId, clientId, at, from, until });
  // That booking is not `booked` any more; when none was (checked in on another instance or by
  // the attendant), none in the window is.
  if (entry && pending) {
    const done = row?.startsAt.getTime();
    entry.booked.set(
      clientId,
      pending.filter((t) => (done === undefined ? !inWindow(t) : t !== done)),
    );
  }
  return row?.id ?? null;
}
