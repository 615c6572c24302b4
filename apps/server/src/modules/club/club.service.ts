import { eq } from 'drizzle-orm';
import { ClubSettings, CURRENCY_SYMBOL, JERUSALEM, type Capacity, type Club, type ClubLocation } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubs } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';

type ClubRow = typeof clubs.$inferSelect;

/** Settings of a club row with the defaults of seed 000 §3 applied. */
export function clubSettings(row: Pick<ClubRow, 'settings'>): ClubSettings {
  return ClubSettings.parse(row.settings ?? {});
}

/** The club's location for zmanim; Jerusalem when none is set (seed 001 §9 leaves the default city unnamed). */
export function clubLocation(row: Pick<ClubRow, 'location'>): ClubLocation {
  return (row.location as ClubLocation | null) ?? JERUSALEM;
}

export function presentClub(row: ClubRow): Club {
  return {
    ...clubSettings(row),
    id: row.id,
    externalClubId: row.externalClubId,
    name: row.name,
    licancesAmount: row.licensesAmount,
    currency: row.currency,
    currencySymbol: CURRENCY_SYMBOL[row.currency] ?? '₪',
    location: clubLocation(row),
  };
}

export async function getClubRow(db: Db, clubId: number): Promise<ClubRow> {
  const [row] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!row) throw notFound('club');
  return row;
}

export async function getCapacities(db: Db, clubId: number): Promise<Capacity[]> {
  const row = await getClubRow(db, clubId);
  return (row.capacities as Capacity[]) ?? [];
}
