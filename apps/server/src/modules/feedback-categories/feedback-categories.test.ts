import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { makeFeedbackCategory } from '../../../test/factories.js';
import { auditLog, feedbackCategories } from '../../db/schema.js';

/** Seed 000 §7 /FeedbackCategory, seed 001 §3 and §5; docs/messages.md. */
describe('feedback categories', () => {
  let ctx: TestContext;
  const incidents = { settings: { isIncidentReportEnabled: true } };
  const valid = { name: 'Towels missing', type: 'Maintenance', reportingSystemCategoryId: 12, defaultSeverityId: 3 };
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates, reads, changes and deletes a category of the caller’s club, with an audit row each', async () => {
    const { api, club } = await signedInAdmin(ctx, incidents);
    const res = await api.post('/api/FeedbackCategory', { ...valid, reportingSystemLocationId: 7 });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({ ...valid, reportingSystemLocationId: 7, clubId: club.id });
    expect((await api.get(`/api/FeedbackCategory/${c.id}`)).json().name).toBe('Towels missing');
    const changed = await api.patch(`/api/FeedbackCategory/${c.id}`, {
      type: 'Experience',
      reportingSystemLocationId: null,
    });
    expect(changed.json()).toMatchObject({
      type: 'Experience',
      reportingSystemLocationId: null,
      name: 'Towels missing',
    });
    expect((await api.get('/api/FeedbackCategory')).json()).toMatchObject({ total: 1, items: [{ id: c.id }] });
    expect((await api.delete(`/api/FeedbackCategory/${c.id}`)).json()).toEqual({ ok: true });
    expect((await api.get(`/api/FeedbackCategory/${c.id}`)).statusCode).toBe(404);
    expect((await api.get('/api/FeedbackCategory')).json().total).toBe(0);
    expect((await api.delete(`/api/FeedbackCategory/${c.id}`)).statusCode).toBe(404);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'feedbackCategory')));
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
  });

  it('refuses a body without a required field, with a bad type or id, or a malformed clubId (400, nothing stored)', async () => {
    const { api, club } = await signedInAdmin(ctx, incidents);
    const cases: [object, string][] = [
      [{ ...valid, name: '' }, 'name'],
      [{ ...valid, name: '   ' }, 'name'],
      [{ ...valid, type: 'Cleaning' }, 'type'],
      [{ name: 'x', type: 'Maintenance', defaultSeverityId: 3 }, 'reportingSystemCategoryId'],
      [{ name: 'x', type: 'Maintenance', reportingSystemCategoryId: 1 }, 'defaultSeverityId'],
      [{ name: 'x', reportingSystemCategoryId: 1, defaultSeverityId: 1 }, 'type'],
      [{ ...valid, reportingSystemCategoryId: 0 }, 'reportingSystemCategoryId'],
      [{ ...valid, defaultSeverityId: 2 ** 31 }, 'defaultSeverityId'],
      [{ ...valid, reportingSystemLocationId: 1.5 }, 'reportingSystemLocationId'],
      [{ ...valid, name: 'x'.repeat(101) }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/api/FeedbackCategory', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().details), JSON.stringify(body)).toContain(field);
    }
    const c = await makeFeedbackCategory(ctx, club.id);
    expect((await api.patch(`/api/FeedbackCategory/${c.id}`, { name: '' })).statusCode).toBe(400);
    // A malformed clubId is still a malformed field (the seed's console sends the club's id).
    for (const clubId of ['abc', 0, 1.5]) {
      const res = await api.post('/api/FeedbackCategory', { ...valid, clubId });
      expect(res.statusCode, String(clubId)).toBe(400);
      expect(res.json().details[0].path).toBe('clubId');
    }
    const stored = await ctx.database.db
      .select()
      .from(feedbackCategories)
      .where(eq(feedbackCategories.clubId, club.id));
    expect(stored).toEqual([c]);
  });

  it("accepts the clubId the seed's console adds to the body and never trusts it: the club is the session's", async () => {
    const { api, club } = await signedInAdmin(ctx, incidents);
    const other = await signedInAdmin(ctx, incidents);
    // Seed 000 §7: "GET and POST /FeedbackCategory (clubId is added to the payload)".
    for (const clubId of [club.id, other.club.id, 2_000_000_000]) {
      const res = await api.post('/api/FeedbackCategory', { ...valid, name: `From ${clubId}`, clubId });
      expect(res.statusCode, String(clubId)).toBe(200);
      expect(res.json().clubId).toBe(club.id);
    }
    const c = await makeFeedbackCategory(ctx, club.id);
    const patched = await api.patch(`/api/FeedbackCategory/${c.id}`, { name: 'Renamed', clubId: other.club.id });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Renamed', clubId: club.id });
    // Nothing reached the other club, and the patched row stayed in the caller's club.
    const theirs = await ctx.database.db
      .select()
      .from(feedbackCategories)
      .where(eq(feedbackCategories.clubId, other.club.id));
    expect(theirs).toEqual([]);
    const ours = await ctx.database.db.select().from(feedbackCategories).where(eq(feedbackCategories.id, c.id));
    expect(ours.map((r) => r.clubId)).toEqual([club.id]);
    expect((await api.get('/api/FeedbackCategory')).json().items).toHaveLength(4);
    // The audit row does not carry the body's clubId either.
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'feedbackCategory')));
    expect(rows.map((r) => (r.after as { clubId?: number }).clubId)).toEqual(rows.map(() => club.id));
  });

  it('answers 401 without a session', async () => {
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/FeedbackCategory')).statusCode).toBe(401);
    expect((await anon.post('/api/FeedbackCategory', valid)).statusCode).toBe(401);
    expect((await anon.delete('/api/FeedbackCategory/1')).statusCode).toBe(401);
  });

  it('answers 403 when the club has incident reports off, and to a user without the settings edit flag on changes', async () => {
    const off = await signedInAdmin(ctx);
    expect((await off.api.get('/api/FeedbackCategory')).statusCode).toBe(403);
    expect((await off.api.post('/api/FeedbackCategory', valid)).json().code).toBe('NOT_AUTHORIZED');
    const { club, api } = await signedInAdmin(ctx, incidents);
    const c = await makeFeedbackCategory(ctx, club.id);
    const u = await makeUser(ctx, club.id, { permissions: { roleViewGeneralSettings: true } });
    const plain = new Api(ctx.app);
    await plain.login(u.username, TEST_PASSWORD, club.externalClubId);
    expect((await plain.get('/api/FeedbackCategory')).json().total).toBe(1);
    expect((await plain.get(`/api/FeedbackCategory/${c.id}`)).statusCode).toBe(200);
    expect((await plain.post('/api/FeedbackCategory', valid)).statusCode).toBe(403);
    expect((await plain.patch(`/api/FeedbackCategory/${c.id}`, { name: 'y' })).statusCode).toBe(403);
    expect((await plain.delete(`/api/FeedbackCategory/${c.id}`)).statusCode).toBe(403);
    expect((await api.get(`/api/FeedbackCategory/${c.id}`)).json().name).toBe(c.name);
  });

  it('answers 404 for another club’s category on get, change and delete, and changes nothing', async () => {
    const a = await signedInAdmin(ctx, incidents);
    const b = await signedInAdmin(ctx, incidents);
    const theirs = await makeFeedbackCategory(ctx, b.club.id);
    await makeFeedbackCategory(ctx, a.club.id);
    for (const res of [
      await a.api.get(`/api/FeedbackCategory/${theirs.id}`),
      await a.api.patch(`/api/FeedbackCategory/${theirs.id}`, { name: 'mine now' }),
      await a.api.delete(`/api/FeedbackCategory/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await a.api.get('/api/FeedbackCategory')).json().items.map((x: { id: number }) => x.id)).not.toContain(
      theirs.id,
    );
    const [after] = await ctx.database.db.select().from(feedbackCategories).where(eq(feedbackCategories.id, theirs.id));
    expect(after).toEqual(theirs);
  });
});
