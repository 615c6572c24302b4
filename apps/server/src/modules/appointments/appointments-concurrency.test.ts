import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EntranceState, type BookingSlots } from '@venue/domain';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/index.js';
import { EventBus } from '../../lib/event-bus.js';
import { bookings } from '../../db/schema.js';
import * as factory from '../../../test/factories.js';
import { Api, openTestDatabase, signedInAdmin, TEST_DB, type TestContext } from '../../../test/harness.js';

/**
 * No double booking, ever (docs/appointments.md "No double booking"): 200 concurrent requests for
 * 20 slots, spread over two server instances, make exactly 20 bookings. On PostgreSQL the two
 * instances have their own connection pools on one database (as two server processes); on PGlite,
 * which one process owns, two apps share its handle.
 */

let shared: Awaited<ReturnType<typeof openTestDatabase>>;
let second: Database | undefined;
let a: FastifyInstance;
let b: FastifyInstance;
const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };

beforeAll(async () => {
  shared = await openTestDatabase();
  if (TEST_DB === 'postgres') second = await openDatabase({ databaseUrl: shared.url!, poolSize: 5 });
  a = await buildApp({ config, database: shared, bus: new EventBus() });
  b = await buildApp({ config, database: second ?? shared, bus: new EventBus() });
  await a.ready();
  await b.ready();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await second?.close();
  await shared?.dropAll();
});

describe(`no double booking on ${TEST_DB} with two app instances`, () => {
  it('200 concurrent requests for 20 slots make exactly 20 bookings', async () => {
    const ctxA = { app: a, database: shared } as unknown as TestContext;
    const { api, club } = await signedInAdmin(ctxA);
    const apiB = new Api(b);
    apiB.token = api.token;
    const g = await factory.makeGroupWithSchedule(ctxA, club.id, { name: 'G' }, [
      { entranceState: EntranceState.Opened },
    ]);
    const room = (
      await api.post('/api/Booking/Resource', { name: 'R', kind: 'pool', serviceMinutes: 10, bufferMinutes: 5 })
    ).json();
    const people: { id: number }[] = [];
    for (let i = 0; i < 50; i++) people.push(await factory.makeClient(ctxA, club.id, { groupId: g.id }));
    const s: BookingSlots = (await api.get(`/api/Booking/Slots?groupId=${g.id}&days=2`)).json();
    const twenty = s.days
      .flatMap((d) => d.slots)
      .filter((x) => x.free && Date.parse(x.startsAt) > Date.now() + 3_600_000)
      .slice(0, 20);
    expect(twenty).toHaveLength(20);
    // A caller told 503 DATABASE_UNAVAILABLE (the test's pools are 5 connections per instance, far
    // below 100 requests at once) tries again, as its Retry-After asks; every other answer is final.
    const book = async (i: number) => {
      for (let attempt = 0; ; attempt++) {
        const r = await (i % 2 ? apiB : api).post('/api/Booking', {
          resourceId: room.id,
          startsAt: twenty[i % 20].startsAt,
          clientId: people[i % 50].id,
          idempotencyKey: `race-${i}`,
        });
        if (r.statusCode !== 503 || attempt >= 5) return r;
        await new Promise((ok) => setTimeout(ok, 200 + Math.random() * 300));
      }
    };
    const requests = Array.from({ length: 200 }, (_, i) => book(i));
    const answers = await Promise.all(requests);
    const codes = answers.map((r) => r.statusCode);
    const odd = answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 409);
    expect(odd.map((r) => r.body).slice(0, 3)).toEqual([]);
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes.filter((c) => c === 409)).toHaveLength(180);
    expect(new Set(answers.filter((r) => r.statusCode === 409).map((r) => r.json().code))).toEqual(
      new Set(['SLOT_TAKEN']),
    );
    const live = await shared.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.clubId, club.id), ne(bookings.status, 'cancelled')));
    expect(live).toHaveLength(20);
    expect(new Set(live.map((x) => x.startsAt.getTime())).size).toBe(20);
  });
});

describe('the database itself refuses a second live booking of a slot', () => {
  it('bookings_live_slot: a cancelled booking frees the slot, a live one does not', async () => {
    const ctxA = { app: a, database: shared } as unknown as TestContext;
    const { api, club } = await signedInAdmin(ctxA);
    const room = (await api.post('/api/Booking/Resource', { name: 'R', kind: 'pool', serviceMinutes: 10 })).json();
    const c = await factory.makeClient(ctxA, club.id);
    const at = new Date(Date.now() + 86_400_000);
    const row = {
      clubId: club.id,
      resourceId: room.id,
      clientId: c.id,
      startsAt: at,
      endsAt: new Date(at.getTime() + 600_000),
      blockedUntil: new Date(at.getTime() + 600_000),
    };
    await shared.db.insert(bookings).values({ ...row, status: 'cancelled' });
    await shared.db.insert(bookings).values(row);
    await expect(shared.db.insert(bookings).values(row)).rejects.toThrow();
  });
});
