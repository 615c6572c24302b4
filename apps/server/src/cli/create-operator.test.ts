import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Api, createTestApp, type TestContext } from '../../test/harness.js';
import { clubs, users } from '../db/schema.js';
import { verifyPassword } from '../lib/password.js';
import { AppError } from '../lib/errors.js';
import { createClubWithAdmin, createOperator } from './create-operator.js';

describe('create-operator', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates the operator (SuperUser, no club, admin) with a generated password, once', async () => {
    const { db } = ctx.database;
    const r = await createOperator(db);
    expect(r.username).toBe('operator');
    expect(r.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const [u] = await db.select().from(users).where(eq(users.id, r.id));
    expect(u).toMatchObject({ clubId: null, level: 1, isAdmin: true, username: 'operator' });
    expect(u.passwordHash).not.toContain(r.password);
    expect(await verifyPassword(r.password, u.passwordHash)).toBe(true);

    const again = createOperator(db, { username: 'Operator' });
    await expect(again).rejects.toBeInstanceOf(AppError);
    await expect(createOperator(db, { username: 'OPERATOR' })).rejects.toMatchObject({
      code: 'USER_NAME_EXISTS',
      status: 409,
    });

    const other = await createOperator(db, { username: 'ops2' });
    expect(other.password).not.toBe(r.password);
  });

  it('creates a club with its first admin, who can sign in; refuses an existing club id', async () => {
    const { db } = ctx.database;
    const r = await createClubWithAdmin(db, { externalClubId: 4321, name: 'מקווה בית אל' });
    expect(r.username).toBe('admin');
    const [club] = await db.select().from(clubs).where(eq(clubs.externalClubId, 4321));
    expect(club.name).toBe('מקווה בית אל');
    const [u] = await db.select().from(users).where(eq(users.clubId, club.id));
    expect(u).toMatchObject({ username: 'admin', isAdmin: true, level: 0 });
    const api = new Api(ctx.app);
    expect((await api.login('admin', r.password, 4321)).statusCode).toBe(200);
    expect((await api.get('/api/Club/GetCurrent')).json()).toMatchObject({
      externalClubId: 4321,
      name: 'מקווה בית אל',
    });

    await expect(createClubWithAdmin(db, { externalClubId: 4321, name: 'again' })).rejects.toMatchObject({
      code: 'CLUB_EXISTS',
    });
    await expect(createClubWithAdmin(db, { externalClubId: 4322, name: '  ' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const named = await createClubWithAdmin(db, { externalClubId: 4323, name: 'Club B', username: 'manager' });
    expect(named.username).toBe('manager');
  });

  it('gives a new club its country’s defaults: the USA class is USA (dollars, New York), others Israel', async () => {
    const { db } = ctx.database;
    const read = async (externalClubId: number) => {
      const [c] = await db.select().from(clubs).where(eq(clubs.externalClubId, externalClubId));
      return {
        country: (c.settings as { country?: string }).country,
        currency: c.currency,
        city: (c.location as { city: string }).city,
        timeZone: (c.location as { timeZone: string }).timeZone,
        il: (c.location as { il: boolean }).il,
      };
    };
    await createClubWithAdmin(db, { externalClubId: 4500, name: 'Brooklyn' });
    await createClubWithAdmin(db, { externalClubId: 1500, name: 'Bnei Brak' });
    await createClubWithAdmin(db, { externalClubId: 1501, name: 'Antwerpen', country: 'Belgium' });
    expect(await read(4500)).toEqual({
      country: 'USA',
      currency: 840,
      city: 'New York',
      timeZone: 'America/New_York',
      il: false,
    });
    expect(await read(1500)).toEqual({
      country: 'Israel',
      currency: 376,
      city: 'Jerusalem',
      timeZone: 'Asia/Jerusalem',
      il: true,
    });
    expect(await read(1501)).toMatchObject({ country: 'Belgium', currency: 978, city: 'Antwerp', il: false });
  });
});
