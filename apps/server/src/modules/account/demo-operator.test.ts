import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserLevel } from '@venue/domain';
import { Api, createTestApp, makeClub, makeUser, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { hashPassword } from '../../lib/password.js';
import { users } from '../../db/schema.js';
import { eq } from 'drizzle-orm';
import { DEMO_PASSWORD } from '../../lib/demo-credentials.js';

/**
 * Demo credentials only for the demo (docs/security.md "Demo credentials"):
 * the published operator password opened every club of a non-production
 * install. It now signs in only while every club but the demo's was created
 * by that account itself; a real operator account is unaffected.
 */
describe('the demo operator', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('signs in while its own clubs are the only ones, and is refused once a club was made another way', async () => {
    const demo = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    await ctx.database.db
      .update(users)
      .set({ passwordHash: await hashPassword(DEMO_PASSWORD) })
      .where(eq(users.id, demo.id));
    // Only the demo club's database (none here yet): it signs in.
    const api = new Api(ctx.app);
    expect((await api.login(demo.username, DEMO_PASSWORD, 1001)).statusCode).toBe(200);
    // A club it creates itself keeps it signing in (the demo's own operator flows).
    const made = await api.post('/api/Operator/Club', {
      externalClubId: 3456,
      name: 'Made by the demo operator',
      adminUsername: 'madeadmin',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect((await new Api(ctx.app).login(demo.username, DEMO_PASSWORD, 1001)).statusCode).toBe(200);
    // A club made another way (the CLI, another operator): refused, saying why.
    await makeClub(ctx);
    const res = await new Api(ctx.app).login(demo.username, DEMO_PASSWORD, 1001);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('DEMO_OPERATOR_OFF');
    // An operator with a password of its own still signs in.
    const real = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    expect((await new Api(ctx.app).login(real.username, TEST_PASSWORD, 1001)).statusCode).toBe(200);
  });
});
