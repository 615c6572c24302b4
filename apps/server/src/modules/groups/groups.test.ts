import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { auditLog, groups, schedules } from '../../db/schema.js';

/** A schedule row: Sunday to Thursday from 18:00 (minutes) to nightfall + 30 minutes. */
function row(extra: object = {}) {
  return {
    days: [1, 2, 3, 4, 5],
    fromTime: 18 * 60,
    toHalachic: 7,
    toOffset: 30,
    entranceState: 2,
    price: 3500,
    ...extra,
  };
}

describe('groups and their schedules', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function scheduleCount(clubId: number): Promise<number> {
    return (await ctx.database.db.select().from(schedules).where(eq(schedules.clubId, clubId))).length;
  }

  it('creates a group with its schedule rows in list order, with defaults and a client count', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await api.post('/api/Group', {
      name: 'Brides',
      color: '#ff00aa',
      bonus: 1000,
      schedule: [
        row({ displayName: 'evening' }),
        row({ days: [6], fromTime: 600, toTime: 720, displayName: 'friday' }),
      ],
    });
    expect(res.statusCode).toBe(200);
    const g = res.json();
    expect(g).toMatchObject({
      name: 'Brides',
      color: '#ff00aa',
      bonus: 1000,
      allowEntrance: true,
      entranceState: 1,
      clientCount: 0,
    });
    expect(g.schedule.map((r: { displayName: string; sortOrder: number }) => [r.displayName, r.sortOrder])).toEqual([
      ['evening', 0],
      ['friday', 1],
    ]);
    expect(g.schedule[0]).toMatchObject({
      fromTime: 1080,
      toTime: null,
      toHalachic: 7,
      toOffset: 30,
      price: 3500,
      terminalId: null,
    });
    await api.post('/api/Client', { firstName: 'A', groupId: g.id });
    await api.post('/api/Client', { firstName: 'B', groupId: g.id });
    const deleted = (await api.post('/api/Client', { firstName: 'C', groupId: g.id })).json();
    await api.patch(`/api/Client/${deleted.id}`, { status: 3 });
    const read = (await api.get(`/api/Group/${g.id}`)).json();
    expect(read.clientCount).toBe(2);
    expect(read.schedule).toEqual(g.schedule);
    const list = (await api.get('/api/Group')).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: g.id, clientCount: 2 });
    expect(list.items[0].schedule).toHaveLength(2);
    const bySchedule = await api.get(`/api/Schedule/GetByGroupId/${g.id}`);
    expect(bySchedule.statusCode).toBe(200);
    expect(bySchedule.json()).toEqual(g.schedule);
  });

  it('PATCH with schedule replaces the rows in the given order, keeping given ids; without it keeps them', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const g = (
      await api.post('/api/Group', {
        name: 'G',
        schedule: [row({ displayName: 'a' }), row({ displayName: 'b' }), row({ displayName: 'c' })],
      })
    ).json();
    const [a, b, c] = g.schedule;
    const other = (await api.post('/api/Group', { name: 'Other', schedule: [row({ displayName: 'x' })] })).json();
    const x = other.schedule[0];

    // Reorder (c, a), drop b, add a new row, and a row copied from another group (its id is not this group's).
    const input = (r: { sortOrder: number }) => {
      const { sortOrder: _, ...rest } = r;
      return rest;
    };
    const res = await api.patch(`/api/Group/${g.id}`, {
      schedule: [input(c), { ...input(a), price: 0 }, row({ displayName: 'new' }), input(x)],
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().schedule;
    expect(rows.map((r: { displayName: string }) => r.displayName)).toEqual(['c', 'a', 'new', 'x']);
    expect(rows.map((r: { sortOrder: number }) => r.sortOrder)).toEqual([0, 1, 2, 3]);
    expect(rows[0].id).toBe(c.id);
    expect(rows[1]).toMatchObject({ id: a.id, price: 0 });
    expect(rows[2].id).not.toBe(b.id);
    expect(rows[3].id).not.toBe(x.id);
    // The other group's row is untouched, b is gone.
    expect((await api.get(`/api/Schedule/GetByGroupId/${other.id}`)).json()).toEqual(other.schedule);
    expect(await scheduleCount(club.id)).toBe(5);

    const renamed = await api.patch(`/api/Group/${g.id}`, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', color: '#1677ff' });
    expect(renamed.json().schedule).toEqual(rows);
    const cleared = await api.patch(`/api/Group/${g.id}`, { schedule: [] });
    expect(cleared.json().schedule).toEqual([]);
    expect(await scheduleCount(club.id)).toBe(1);
  });

  it("refuses a schedule row naming another club's terminal, and bad rows, changing nothing", async () => {
    const { api, club } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const foreign = (await other.api.post('/api/Terminal', { serial: `T-${club.id}-x`, name: 'Gate' })).json();
    const mine = (await api.post('/api/Terminal', { serial: `T-${club.id}-m`, name: 'Gate' })).json();
    const g = (await api.post('/api/Group', { name: 'G', schedule: [row({ terminalId: mine.id })] })).json();
    expect(g.schedule[0].terminalId).toBe(mine.id);

    const res = await api.patch(`/api/Group/${g.id}`, {
      name: 'Changed',
      schedule: [row(), row({ terminalId: foreign.id })],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'schedule.1.terminalId', message: 'unknownTerminal' }],
    });
    const create = await api.post('/api/Group', { name: 'New', schedule: [row({ terminalId: foreign.id })] });
    expect(create.statusCode).toBe(400);

    const bad: [object, string][] = [
      [{ schedule: [row({ days: [] })] }, 'schedule.0.days'],
      [{ schedule: [row({ fromTime: null })] }, 'schedule.0.fromTime'],
      [{ schedule: [row({ fromDate: '2025-05-01', toDate: '2025-04-01' })] }, 'schedule.0.toDate'],
      [{ schedule: [row({ fromDate: '2025-13-01' })] }, 'schedule.0.fromDate'],
      [{ schedule: [row({ price: 2 ** 31 })] }, 'schedule.0.price'],
      [{ schedule: [row({ terminalId: 2 ** 40 })] }, 'schedule.0.terminalId'],
      [{ schedule: [row({ unknown: 1 })] }, ''],
      [{ bonus: 1e12 }, 'bonus'],
      [{ color: 'red' }, 'color'],
      [{ clubId: 5 }, ''],
    ];
    for (const [body, path] of bad) {
      const r = await api.patch(`/api/Group/${g.id}`, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().code).toBe('VALIDATION_ERROR');
      if (path) expect(r.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const after = (await api.get(`/api/Group/${g.id}`)).json();
    expect(after).toEqual({ ...g, clientCount: 0 });
    expect((await api.get('/api/Group')).json().total).toBe(1);
  });

  it('soft-deletes a group: gone from the list and by id, the row kept, audited', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const g = (await api.post('/api/Group', { name: 'Temp', schedule: [row()] })).json();
    const del = await api.delete(`/api/Group/${g.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    expect((await api.get(`/api/Group/${g.id}`)).statusCode).toBe(404);
    expect((await api.get(`/api/Schedule/GetByGroupId/${g.id}`)).statusCode).toBe(404);
    expect((await api.patch(`/api/Group/${g.id}`, { name: 'Back' })).statusCode).toBe(404);
    expect((await api.delete(`/api/Group/${g.id}`)).statusCode).toBe(404);
    expect((await api.get('/api/Group')).json()).toEqual({ items: [], total: 0 });
    const [stored] = await ctx.database.db.select().from(groups).where(eq(groups.id, g.id));
    expect(stored).toMatchObject({ deleted: true, name: 'Temp' });
    const actions = (
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'group'), eq(auditLog.entityId, String(g.id))))
    ).map((a) => a.action);
    expect(actions.sort()).toEqual(['create', 'delete']);
  });

  it("answers 404 for another club's group on every call, and changes nothing there", async () => {
    const { api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const theirs = (await other.api.post('/api/Group', { name: 'Theirs', schedule: [row()] })).json();
    expect((await api.get(`/api/Group/${theirs.id}`)).statusCode).toBe(404);
    expect((await api.get(`/api/Schedule/GetByGroupId/${theirs.id}`)).statusCode).toBe(404);
    expect((await api.patch(`/api/Group/${theirs.id}`, { name: 'Mine', schedule: [] })).statusCode).toBe(404);
    expect((await api.delete(`/api/Group/${theirs.id}`)).statusCode).toBe(404);
    expect((await other.api.get(`/api/Group/${theirs.id}`)).json()).toEqual(theirs);
  });

  it('needs the view permission to read and the edit permission to change', async () => {
    const { api: admin, club } = await signedInAdmin(ctx);
    const g = (await admin.post('/api/Group', { name: 'G' })).json();
    expect((await new Api(ctx.app).get('/api/Group')).statusCode).toBe(401);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewClientGroupList: true } });
    const api = new Api(ctx.app);
    await api.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await api.get('/api/Group')).statusCode).toBe(200);
    expect((await api.get(`/api/Schedule/GetByGroupId/${g.id}`)).statusCode).toBe(200);
    expect((await api.post('/api/Group', { name: 'X' })).statusCode).toBe(403);
    expect((await api.patch(`/api/Group/${g.id}`, { name: 'X' })).statusCode).toBe(403);
    expect((await api.delete(`/api/Group/${g.id}`)).statusCode).toBe(403);
  });
});
