import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { halachicMinutes, HalachicTime, hhmm, JERUSALEM, parseIsoDate } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { auditLog } from '../../db/schema.js';

describe('general schedules, links and the week preview', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates, lists, changes and deletes general rows; links them to groups once; refuses changing a group row here', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const group = (
      await api.post('/api/Group', {
        name: 'Women',
        schedule: [{ days: [0], fromTime: 600, toTime: 660, entranceState: 2 }],
      })
    ).json();
    const created = await api.post('/api/Schedule', {
      days: [5, 7],
      fromTime: hhmm('08:00'),
      toTime: hhmm('12:00'),
      entranceState: 1,
      displayName: 'Holiday eve mornings',
    });
    expect(created.statusCode).toBe(200);
    const s = created.json();
    expect(s).toMatchObject({ groupId: null, days: [5, 7], displayName: 'Holiday eve mornings', links: [] });
    const link = (await api.post('/api/ScheduleToGroup', { scheduleId: s.id, groupId: group.id })).json();
    const again = (await api.post('/api/ScheduleToGroup', { scheduleId: s.id, groupId: group.id })).json();
    expect(again.id).toBe(link.id);
    const general = (await api.get('/api/Schedule/GetGeneral')).json();
    expect(general).toHaveLength(1);
    expect(general[0].links).toEqual([{ id: link.id, groupId: group.id, groupName: 'Women' }]);
    expect((await api.get('/api/Schedule')).json()).toHaveLength(2);
    expect((await api.get(`/api/Schedule?groupId=${group.id}`)).json().map((r: { id: number }) => r.id)).toEqual([
      group.schedule[0].id,
    ]);
    const changed = await api.patch(`/api/Schedule/${s.id}`, { toTime: hhmm('13:00') });
    expect(changed.json()).toMatchObject({ toTime: hhmm('13:00'), fromTime: hhmm('08:00'), days: [5, 7] });
    const bad = await api.patch(`/api/Schedule/${s.id}`, { days: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toMatchObject({ path: 'days', message: 'chooseDays' });
    const own = await api.patch(`/api/Schedule/${group.schedule[0].id}`, { toTime: 700 });
    expect(own.statusCode).toBe(409);
    expect(own.json().code).toBe('SCHEDULE_OF_GROUP');
    expect((await api.delete(`/api/Schedule/${group.schedule[0].id}`)).json().code).toBe('SCHEDULE_OF_GROUP');
    expect((await api.get(`/api/Schedule/${group.schedule[0].id}`)).json().groupId).toBe(group.id);
    // Linking: only general rows of the club and live groups of the club.
    const wrong = await api.post('/api/ScheduleToGroup', { scheduleId: group.schedule[0].id, groupId: 999999 });
    expect(wrong.json().details.map((d: { message: string }) => d.message)).toEqual([
      'unknownSchedule',
      'unknownGroup',
    ]);
    expect((await api.delete(`/api/ScheduleToGroup/${link.id}`)).json()).toEqual({ ok: true });
    expect((await api.delete(`/api/ScheduleToGroup/${link.id}`)).statusCode).toBe(404);
    expect((await api.delete(`/api/Schedule/${s.id}`)).json()).toEqual({ ok: true });
    expect((await api.get(`/api/Schedule/${s.id}`)).statusCode).toBe(404);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'schedule')));
    expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('previews a week of a group with a nightfall row and a linked general row ranked below it', async () => {
    const { api } = await signedInAdmin(ctx);
    const group = (
      await api.post('/api/Group', {
        name: 'Evening',
        entranceState: 1,
        schedule: [
          { days: [0, 1, 2, 3, 4], fromHalachic: HalachicTime.Nightfall, toTime: hhmm('23:00'), entranceState: 2 },
        ],
      })
    ).json();
    const general = (
      await api.post('/api/Schedule', { days: [0], fromTime: hhmm('17:00'), toTime: hhmm('23:30'), entranceState: 6 })
    ).json();
    await api.post('/api/ScheduleToGroup', { scheduleId: general.id, groupId: group.id });
    const res = await api.get(`/api/Group/${group.id}/WeekPreview?from=2026-03-01&lang=en`);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ groupId: group.id, location: 'Jerusalem', defaultEntranceState: 1 });
    expect(p.days).toHaveLength(7);
    const sunday = p.days[0];
    const night = halachicMinutes(HalachicTime.Nightfall, parseIsoDate('2026-03-01'), JERUSALEM)!;
    expect(sunday).toMatchObject({ date: '2026-03-01', weekday: 0, nightfall: night });
    expect(sunday.windows.map((w: { from: number; to: number; source: string }) => [w.from, w.to, w.source])).toEqual([
      [hhmm('17:00'), night, 'general'],
      [night, hhmm('23:00'), 'own'],
      [hhmm('23:00'), hhmm('23:30'), 'general'],
    ]);
    expect(p.days[5].windows).toEqual([]);
    expect((await api.get(`/api/Group/${group.id}/WeekPreview?from=2026-02-30`)).statusCode).toBe(400);
    expect((await api.get('/api/Group/999999/WeekPreview')).statusCode).toBe(404);
    expect((await api.get(`/api/Group/${group.id}/WeekPreview`)).json().days).toHaveLength(7);
  });
});
