import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EntranceState, type Permissions, type ReportResult } from '@venue/domain';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { localInstant } from '../../../../test/time.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import {
  bookingCounts,
  bookingResources,
  bookings,
  bookingSettings,
  bookingWaitlist,
  bookingWaitlistCounts,
} from '../../../db/schema.js';
import { applyBookingRetention } from '../../appointments/appointments.jobs.js';
import { TZ } from '../test-setup.js';

/**
 * The four booking reports (docs/appointments.md "Reports") on a fixed data set inserted directly:
 * live bookings and waitlist entries, what retention kept (booking_counts,
 * booking_waitlist_counts), another club's rows, rows just outside the period. The expected
 * figures are computed here from the same arrays; then retention folds every live row and the
 * reports must answer the same figures (counts past retention, not zeros).
 */

type Kind = 'prepBath' | 'pool';
type Status = 'booked' | 'offered' | 'checkedIn' | 'done' | 'immersed' | 'noShow' | 'cancelled';
interface B {
  room: Kind;
  /** Club-local day of February 2025 (0 = 31 January, 29 = 1 March), hour, minute. */
  d: number;
  h: number;
  mi?: number;
  status: Status;
  source?: 'staff' | 'waitlist';
  /** An offer from the waitlist (its hold set): cancelled = ended, never a booking. */
  offer?: true;
  client?: 'c1' | 'c2';
}

const FEB = { period: 'range', from: '2025-02-01', to: '2025-02-28', pageSize: 100 };
const SERVICE: Record<Kind, number> = { prepBath: 45, pool: 10 };
const BUFFER: Record<Kind, number> = { prepBath: 15, pool: 5 };

const BOOKINGS: B[] = [
  { room: 'prepBath', d: 3, h: 19, status: 'done', client: 'c1' },
  { room: 'prepBath', d: 3, h: 20, status: 'noShow', client: 'c2' },
  { room: 'prepBath', d: 3, h: 21, status: 'cancelled' },
  { room: 'pool', d: 3, h: 19, status: 'checkedIn' },
  { room: 'pool', d: 3, h: 19, mi: 15, status: 'cancelled', source: 'waitlist', offer: true },
  { room: 'pool', d: 10, h: 20, status: 'booked', source: 'waitlist' },
  { room: 'prepBath', d: 10, h: 19, status: 'noShow', client: 'c1' },
  { room: 'pool', d: 11, h: 20, status: 'offered', source: 'waitlist', offer: true },
  // Outside February at the club (its local days), though inside it in UTC on one side.
  { room: 'prepBath', d: 29, h: 0, mi: 30, status: 'noShow' },
  { room: 'prepBath', d: 0, h: 23, status: 'done' },
];

interface Kept {
  date: string;
  kind: Kind;
  hour: number;
  bookings: number;
  noShows: number;
  cancelled: number;
  fromWaitlist: number;
  attended: number;
  minutes: number;
}
const KEPT: Kept[] = [
  {
    date: '2025-02-01',
    kind: 'prepBath',
    hour: 19,
    bookings: 5,
    noShows: 1,
    cancelled: 2,
    fromWaitlist: 1,
    attended: 4,
    minutes: 225,
  },
  {
    date: '2025-01-31',
    kind: 'pool',
    hour: 20,
    bookings: 9,
    noShows: 9,
    cancelled: 9,
    fromWaitlist: 0,
    attended: 0,
    minutes: 90,
  },
];

interface W {
  d: number;
  kind: Kind;
  status: 'waiting' | 'offered' | 'booked' | 'expired' | 'removed';
  offered: boolean;
}
const WAITLIST: W[] = [
  { d: 10, kind: 'pool', status: 'booked', offered: true },
  { d: 10, kind: 'pool', status: 'expired', offered: true },
  { d: 10, kind: 'pool', status: 'waiting', offered: false },
  { d: 10, kind: 'prepBath', status: 'removed', offered: false },
  { d: 11, kind: 'pool', status: 'offered', offered: true },
  { d: 29, kind: 'pool', status: 'waiting', offered: false },
];
const WAIT_KEPT = [
  { date: '2025-02-02', kind: 'prepBath' as Kind, joined: 3, offered: 2, accepted: 1, expired: 1 },
  { date: '2025-01-30', kind: 'pool' as Kind, joined: 7, offered: 7, accepted: 7, expired: 0 },
];

const iso = (d: number) => new Date(Date.UTC(2025, 1, d)).toISOString().slice(0, 10);
const inFeb = (d: number) => d >= 1 && d <= 28;
const keptInFeb = (date: string) => date >= '2025-02-01' && date <= '2025-02-28';
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const isBooked = (b: B) => b.status !== 'cancelled' && b.status !== 'offered';
const isAttended = (b: B) => ['checkedIn', 'preparing', 'immersed', 'done'].includes(b.status);
const isCancelled = (b: B) => b.status === 'cancelled' && !b.offer;
const pct = (a: number, b: number) => (b > 0 ? Math.round((100 * a) / b) : null);

/** Expected bookings-report rows (date, kind) from the arrays. */
function expectedDays() {
  const rows = new Map<string, Record<string, number | string>>();
  const row = (date: string, kind: string) => {
    const k = `${date}:${kind}`;
    if (!rows.has(k))
      rows.set(k, { id: k, date, roomKind: kind, booked: 0, attended: 0, noShows: 0, cancelled: 0, fromWaitlist: 0 });
    return rows.get(k)! as Record<string, number>;
  };
  for (const b of BOOKINGS.filter((x) => inFeb(x.d))) {
    const r = row(iso(b.d), b.room);
    r.booked += isBooked(b) ? 1 : 0;
    r.attended += isAttended(b) ? 1 : 0;
    r.noShows += b.status === 'noShow' ? 1 : 0;
    r.cancelled += isCancelled(b) ? 1 : 0;
    r.fromWaitlist += isBooked(b) && b.source === 'waitlist' ? 1 : 0;
  }
  for (const k of KEPT.filter((x) => keptInFeb(x.date))) {
    const r = row(k.date, k.kind);
    r.booked += k.bookings;
    r.attended += k.attended;
    r.noShows += k.noShows;
    r.cancelled += k.cancelled;
    r.fromWaitlist += k.fromWaitlist;
  }
  return [...rows.values()];
}

describe('booking reports (bookings, no-shows, room use, waitlist)', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof signedInAdmin>>;
  let clubId: number;
  let manager: Api;
  let namesViewer: Api;
  let noFlag: Api;
  const clientIds: Record<string, number> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await signedInAdmin(ctx);
    clubId = admin.club.id;
    const db = ctx.database.db;
    // Open all day, every day: 24 bath slots (45 + 15) and 96 pool slots (10 + 5) a day.
    const g = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Women' }, [
      { entranceState: EntranceState.Opened },
    ]);
    const rooms: Record<Kind, number> = { prepBath: 0, pool: 0 };
    for (const kind of ['prepBath', 'pool'] as Kind[]) {
      const [r] = await db
        .insert(bookingResources)
        .values({
          clubId,
          name: kind === 'pool' ? 'Bor' : 'Room 1',
          kind,
          serviceMinutes: SERVICE[kind],
          bufferMinutes: BUFFER[kind],
          groupIds: [g.id],
        })
        .returning();
      rooms[kind] = r.id;
    }
    const [c1, c2] = await factory.makeClients(ctx, clubId, [
      { number: 1, firstName: 'Dina', lastName: 'Levi', groupId: g.id },
      { number: 2, firstName: 'Rivka', lastName: 'Cohen', groupId: g.id },
    ]);
    clientIds.c1 = c1.id;
    clientIds.c2 = c2.id;
    for (const b of BOOKINGS) {
      const startsAt = localInstant(TZ, 2025, 2, 1, b.h, b.mi ?? 0);
      startsAt.setTime(startsAt.getTime() + (b.d - 1) * 86_400_000);
      const endsAt = new Date(startsAt.getTime() + SERVICE[b.room] * 60_000);
      await db.insert(bookings).values({
        clubId,
        resourceId: rooms[b.room],
        clientId: clientIds[b.client ?? 'c1'],
        startsAt,
        endsAt,
        blockedUntil: new Date(endsAt.getTime() + BUFFER[b.room] * 60_000),
        status: b.status,
        source: b.source ?? 'staff',
        offerExpiresAt: b.offer ? startsAt : null,
      });
    }
    await db.insert(bookingCounts).values(KEPT.map((k) => ({ clubId, ...k })));
    for (const w of WAITLIST) {
      await db.insert(bookingWaitlist).values({
        clubId,
        clientId: clientIds.c2,
        date: iso(w.d),
        kind: w.kind,
        status: w.status,
        bookingId: w.offered ? 1 : null,
      });
    }
    await db.insert(bookingWaitlistCounts).values(WAIT_KEPT.map((k) => ({ clubId, ...k })));

    // Another club's rows of the same days: never counted.
    const other = await signedInAdmin(ctx);
    const oc = await factory.makeClient(ctx, other.club.id, { number: 1 });
    const [or] = await db
      .insert(bookingResources)
      .values({ clubId: other.club.id, name: 'X', kind: 'pool', serviceMinutes: 10 })
      .returning();
    const at = localInstant(TZ, 2025, 2, 3, 19);
    await db.insert(bookings).values({
      clubId: other.club.id,
      resourceId: or.id,
      clientId: oc.id,
      startsAt: at,
      endsAt: new Date(at.getTime() + 600_000),
      blockedUntil: new Date(at.getTime() + 600_000),
      status: 'noShow',
    });
    await db.insert(bookingCounts).values({ ...KEPT[0], clubId: other.club.id });
    await db
      .insert(bookingWaitlist)
      .values({ clubId: other.club.id, clientId: oc.id, date: '2025-02-10', kind: 'pool' });
    await db.insert(bookingWaitlistCounts).values({ ...WAIT_KEPT[0], clubId: other.club.id });

    const login = async (permissions: Partial<Permissions>) => {
      const u = await makeUser(ctx, clubId, { permissions });
      const api = new Api(ctx.app);
      await api.login(u.username, TEST_PASSWORD, admin.club.externalClubId);
      return api;
    };
    manager = await login({ roleManageBookings: true });
    namesViewer = await login({ roleManageBookings: true, roleViewBookingNames: true });
    noFlag = await login({ roleEntrancesReport: true, roleViewBookingNames: true });
  });
  afterAll(async () => ctx?.close());

  const report = async (call: string, body: object = FEB, api: Api = manager) => {
    const res = await api.post(`/api/Report/${call}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  const expectedNoShows = BOOKINGS.filter((b) => inFeb(b.d) && b.status === 'noShow');

  async function checkBookings(live: boolean) {
    const rows = expectedDays();
    const body = await report('GetBookingsReport', { ...FEB, sort: 'date', order: 'asc' });
    const sorted = [...rows].sort((a, b) => `${a.date}${a.roomKind}`.localeCompare(`${b.date}${b.roomKind}`));
    expect(body.items).toEqual(sorted);
    expect(body.total).toBe(rows.length);
    const total = (k: string) => sum(rows.map((r) => r[k] as number));
    expect(body.totals).toEqual({
      booked: total('booked'),
      attended: total('attended'),
      noShows: total('noShows'),
      cancelled: total('cancelled'),
      fromWaitlist: total('fromWaitlist'),
      byRoomKind: {
        pool: sum(rows.filter((r) => r.roomKind === 'pool').map((r) => r.booked as number)),
        prepBath: sum(rows.filter((r) => r.roomKind === 'prepBath').map((r) => r.booked as number)),
      },
    });
    expect(live || body.items.length > 0).toBe(true);
  }

  async function checkRoomUse() {
    // The catalogue's default order: room kind, then hour.
    const body = await report('GetRoomUseReport', FEB);
    const booked = new Map<string, { n: number; m: number }>();
    const add = (kind: string, hour: number, n: number, m: number) => {
      const k = `${kind}:${hour}`;
      const cur = booked.get(k) ?? { n: 0, m: 0 };
      booked.set(k, { n: cur.n + n, m: cur.m + m });
    };
    for (const b of BOOKINGS.filter((x) => inFeb(x.d) && isBooked(x))) add(b.room, b.h, 1, SERVICE[b.room]);
    for (const k of KEPT.filter((x) => keptInFeb(x.date))) add(k.kind, k.hour, k.bookings, k.minutes);
    // 28 days of the all-day window: 45 bath minutes and 4 × 10 pool minutes start in every hour.
    const bookable: Record<Kind, number> = { prepBath: 28 * 45, pool: 28 * 40 };
    const expected = (['pool', 'prepBath'] as Kind[]).flatMap((kind) =>
      Array.from({ length: 24 }, (_, hour) => {
        const u = booked.get(`${kind}:${hour}`) ?? { n: 0, m: 0 };
        return {
          id: `${kind}:${hour}`,
          roomKind: kind,
          hour: `${String(hour).padStart(2, '0')}:00`,
          bookings: u.n,
          bookedMinutes: u.m,
          bookableMinutes: bookable[kind],
          occupancy: pct(u.m, bookable[kind]),
        };
      }),
    );
    expect(body.items).toEqual(expected);
    const bookedMinutes = sum(expected.map((r) => r.bookedMinutes));
    const bookableMinutes = 24 * (bookable.pool + bookable.prepBath);
    expect(body.totals).toEqual({
      bookings: sum(expected.map((r) => r.bookings)),
      bookedMinutes,
      bookableMinutes,
      occupancy: pct(bookedMinutes, bookableMinutes),
    });
  }

  async function checkWaitlist() {
    const rows = new Map<string, Record<string, number | string>>();
    const row = (date: string, kind: string) => {
      const k = `${date}:${kind}`;
      if (!rows.has(k)) rows.set(k, { id: k, date, roomKind: kind, joined: 0, offered: 0, accepted: 0, expired: 0 });
      return rows.get(k)! as Record<string, number>;
    };
    for (const w of WAITLIST.filter((x) => inFeb(x.d))) {
      const r = row(iso(w.d), w.kind);
      r.joined += 1;
      r.offered += w.offered ? 1 : 0;
      r.accepted += w.status === 'booked' ? 1 : 0;
      r.expired += w.status === 'expired' ? 1 : 0;
    }
    for (const k of WAIT_KEPT.filter((x) => keptInFeb(x.date))) {
      const r = row(k.date, k.kind);
      for (const f of ['joined', 'offered', 'accepted', 'expired'] as const) r[f] += k[f];
    }
    const list = [...rows.values()]
      .map((r): Record<string, number | string | null> => ({
        ...r,
        fulfilment: pct(r.accepted as number, r.joined as number),
      }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const body = await report('GetWaitlistReport', { ...FEB, sort: 'date', order: 'asc' });
    expect(body.items).toEqual(list);
    const t = (k: string) => sum(list.map((r) => r[k] as number));
    expect(body.totals).toEqual({
      joined: t('joined'),
      offered: t('offered'),
      accepted: t('accepted'),
      expired: t('expired'),
      fulfilment: pct(t('accepted'), t('joined')),
    });
  }

  it('bookings: per day and room kind, live and retained added, other clubs and other days out', async () => {
    await checkBookings(true);
  });

  it('room use: booked of bookable minutes per room kind and hour, from the real windows', async () => {
    await checkRoomUse();
  });

  it('waitlist: joined, offered, accepted, expired and fulfilment per day and kind', async () => {
    await checkWaitlist();
  });

  it('no-shows: the list names the client only to staff who may see booking names', async () => {
    const kept = sum(KEPT.filter((k) => keptInFeb(k.date)).map((k) => k.noShows));
    const bookedAll =
      BOOKINGS.filter((b) => inFeb(b.d) && isBooked(b)).length +
      sum(KEPT.filter((k) => keptInFeb(k.date)).map((k) => k.bookings));
    const plain = await report('GetNoShowsReport', { ...FEB, order: 'asc' });
    expect(plain.total).toBe(expectedNoShows.length);
    expect(plain.totals).toEqual({ noShows: expectedNoShows.length + kept, retained: kept, booked: bookedAll });
    expect(plain.items.map((r) => [r.roomKind, r.clientName, r.clientNumber, r.clientId])).toEqual(
      expectedNoShows.map((b) => [b.room, null, null, null]),
    );
    const named = await report('GetNoShowsReport', { ...FEB, order: 'asc' }, namesViewer);
    expect(named.items.map((r) => r.clientName)).toEqual(['Rivka Cohen', 'Dina Levi']);
    // The export: the same rule, words in the language.
    const x = await manager.post('/api/Report/GetNoShowsReport/Export', { ...FEB, lang: 'en', order: 'asc' });
    expect(x.statusCode).toBe(200);
    const sheet = await readXlsx(x.rawPayload);
    expect(sheet[0]).toEqual(expect.arrayContaining(['Date and time', 'Room kind', 'Client']));
    expect(sheet[1]).toContain('Preparation room (bath)');
    expect(JSON.stringify(sheet)).not.toContain('Rivka');
    const xn = await namesViewer.post('/api/Report/GetNoShowsReport/Export', { ...FEB, lang: 'he', order: 'asc' });
    expect(JSON.stringify(await readXlsx(xn.rawPayload))).toContain('Rivka Cohen');
  });

  it('exports the bookings report with Hebrew words and a totals row', async () => {
    const res = await manager.post('/api/Report/GetBookingsReport/Export', { ...FEB, lang: 'he', sort: 'date' });
    expect(res.statusCode).toBe(200);
    const sheet = await readXlsx(res.rawPayload);
    expect(sheet[0]).toEqual(expect.arrayContaining(['סוג חדר', 'הוזמנו', 'הגיעו', 'לא הגיעו', 'בוטלו']));
    expect(sheet[1 + expectedDays().length]?.[0]).toBe('סה"כ');
  });

  it('only roleManageBookings: 403 without it (even with the names flag), 401 signed out', async () => {
    for (const call of ['GetBookingsReport', 'GetNoShowsReport', 'GetRoomUseReport', 'GetWaitlistReport']) {
      expect((await noFlag.post(`/api/Report/${call}`, FEB)).statusCode).toBe(403);
      expect((await noFlag.post(`/api/Report/${call}/Export`, FEB)).statusCode).toBe(403);
      expect((await new Api(ctx.app).post(`/api/Report/${call}`, FEB)).statusCode).toBe(401);
    }
  });

  it('past retention: every live row folded into counts, the reports answer the same figures', async () => {
    const db = ctx.database.db;
    await db.insert(bookingSettings).values({ clubId, settings: { retentionDays: 30 } });
    const removed = await applyBookingRetention(db, clubId, new Date('2025-04-20T00:00:00Z'));
    expect(removed).toBe(BOOKINGS.length);
    expect(await db.select().from(bookings).where(eq(bookings.clubId, clubId))).toEqual([]);
    expect(await db.select().from(bookingWaitlist).where(eq(bookingWaitlist.clubId, clubId))).toEqual([]);
    await checkBookings(false);
    await checkRoomUse();
    await checkWaitlist();
    const ns = await report('GetNoShowsReport');
    const kept = sum(KEPT.filter((k) => keptInFeb(k.date)).map((k) => k.noShows));
    expect(ns.items).toEqual([]);
    expect(ns.totals.noShows).toBe(expectedNoShows.length + kept);
    expect(ns.totals.retained).toBe(expectedNoShows.length + kept);
  });
});
