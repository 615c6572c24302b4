import { eq } from 'drizzle-orm';
import { allPermissions, UserRole } from '@venue/domain';
import type { Db } from '../db/index.js';
import { clubs, users } from '../db/schema.js';
import { hashPassword } from '../lib/password.js';

export const DEMO_EXTERNAL_CLUB_ID = 1001;
export const DEMO_USERNAME = 'admin';
/** Only for the demo club (DESIGN §9); a production start creates no account. */
export const DEMO_PASSWORD = 'demo1234';

export interface DemoOptions {
  clients: number;
  days: number;
  log?: (msg: string) => void;
}

/**
 * Loads the demo club into an empty database (DESIGN §9). Returns true when
 * the demo club exists after the call. Does nothing when any club exists.
 */
export async function ensureDemoClub(db: Db, opts: DemoOptions): Promise<boolean> {
  const existing = await db.select({ id: clubs.id, e: clubs.externalClubId }).from(clubs).limit(5);
  if (existing.length > 0) return existing.some((c) => c.e === DEMO_EXTERNAL_CLUB_ID);
  opts.log?.('Loading the demo club (first start)...');
  const [club] = await db
    .insert(clubs)
    .values({
      externalClubId: DEMO_EXTERNAL_CLUB_ID,
      name: 'מקווה טהרת ישראל — הדגמה',
      licensesAmount: 250,
      capacities: [{ name: 'products', capacity: 20 }],
    })
    .returning();
  await db.insert(users).values({
    clubId: club.id,
    username: DEMO_USERNAME,
    passwordHash: await hashPassword(DEMO_PASSWORD),
    name: 'מנהל הדגמה',
    role: UserRole.MANAGER,
    isAdmin: true,
    permissions: allPermissions(true),
    termsVersion: 1,
  });
  const [check] = await db.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, club.id));
  return Boolean(check);
}
