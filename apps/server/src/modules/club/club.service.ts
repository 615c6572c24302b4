import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  candleLightingMinutes,
  ClubSettings,
  CURRENCY_SYMBOL,
  isValidIsraeliDealerNumber,
  isoDate,
  JERUSALEM,
  localParts,
  normalizeLocation,
  OPERATOR_ONLY_SETTINGS,
  resolveLocation,
  UserLevel,
  type Capacity,
  type Club,
  type ClubLocation,
  type ClubPatch,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubs, groups } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { assertValid, int32Errors, validationError } from '../../lib/validation.js';
import { scoped } from '../../lib/scoped.js';
import { queryRows } from '../../db/query.js';
import type { EventBus } from '../../lib/event-bus.js';

type ClubRow = typeof clubs.$inferSelect;

/** Settings of a club row with the defaults of seed 000 §3 applied. */
export function clubSettings(row: { settings: unknown }): ClubSettings {
  return ClubSettings.parse(row.settings ?? {});
}

/**
 * The club's location for zmanim and its time zone; Jerusalem when none is set
 * (seed 001 §9 leaves the default city unnamed; docs/calendar.md). The stored
 * object as is (the gate calls this per decision): what the calendar needs is
 * always stored; presentClub answers the complete shape (normalizeLocation).
 */
export function clubLocation(row: Pick<ClubRow, 'location'>): ClubLocation {
  const l = row.location as ClubLocation | null;
  return l && typeof l.timeZone === 'string' && typeof l.latitude === 'number' ? l : JERUSALEM;
}

/** The club's local date (YYYY-MM-DD) of an instant. */
export function clubToday(location: unknown, at: Date): string {
  const tz = clubLocation({ location: location as never }).timeZone;
  return isoDate(localParts(at, tz));
}

export function presentClub(row: ClubRow): Club {
  const location = normalizeLocation(row.location as ClubLocation | null);
  return {
    ...clubSettings(row),
    id: row.id,
    externalClubId: row.externalClubId,
    name: row.name,
    licancesAmount: row.licensesAmount,
    currency: row.currency,
    currencySymbol: CURRENCY_SYMBOL[row.currency] ?? '₪',
    location: { ...location, candleLightingMinsInForce: candleLightingMinutes(location) },
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

/**
 * Changes the caller's club settings (PATCH /api/Club/{id}; seed 000 §3, seed
 * 001 §3). Settings merge into the stored ones and are validated whole. The
 * operator-only fields (OPERATOR_ONLY_SETTINGS) may be sent unchanged by club
 * staff — the console sends the whole form — but a change answers 403.
 * @throws AppError NOT_FOUND (404) when `id` is not the caller's club
 * @throws AppError CONTACT_MANAGER (403, details {fields}) when club staff change an operator-only setting
 * @throws AppError VALIDATION_ERROR (400) for a self-registration group that is not the club's, or a
 *   location time zone the database does not know (`location.timeZone` `invalidTimeZone`)
 *
 * A location (ClubLocationInput: a built-in city or a custom location) is
 * stored whole; the audit row's before/after carry it. After the commit a
 * changed location is published (`club-location` on the bus, every server
 * instance): the gate reads the location with every decision, the terminals'
 * offline lists are rebuilt and re-sent (realtime/gate-push.ts).
 */
export async function updateClub(
  db: Db,
  bus: EventBus | null,
  actor: Actor,
  id: number,
  patch: ClubPatch,
): Promise<Club> {
  if (id !== actor.clubId) throw notFound('club');
  const location = patch.location ? await checkedLocation(db, patch.location) : undefined;
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(clubs).where(eq(clubs.id, id)).for('update');
    if (!row) throw notFound('club');
    const before = presentClub(row);
    const changedOperatorFields = OPERATOR_ONLY_SETTINGS.filter(
      (f) => patch[f] !== undefined && patch[f] !== before[f],
    );
    if (changedOperatorFields.length > 0 && actor.level !== UserLevel.SuperUser) {
      throw new AppError('CONTACT_MANAGER', 'Contact the manager to change these settings', {
        fields: changedOperatorFields,
      });
    }
    const { name, currency, licancesAmount, location: _input, ...settingsPatch } = patch;
    if (settingsPatch.selfRegisterDefaultGroupId != null) {
      assertValid(int32Errors({ selfRegisterDefaultGroupId: settingsPatch.selfRegisterDefaultGroupId }));
      const [g] = await tx
        .select({ id: groups.id })
        .from(groups)
        .where(scoped(tx, id).live(groups, eq(groups.id, settingsPatch.selfRegisterDefaultGroupId)));
      if (!g) throw validationError([{ path: 'selfRegisterDefaultGroupId', message: 'unknownGroup' }]);
    }
    const settings = ClubSettings.parse({ ...clubSettings(row), ...settingsPatch });
    assertDealerNumber(settings, settingsPatch);
    await tx
      .update(clubs)
      .set({
        settings,
        ...(name !== undefined ? { name } : {}),
        ...(currency !== undefined ? { currency } : {}),
        ...(licancesAmount !== undefined ? { licensesAmount: licancesAmount } : {}),
        ...(location !== undefined ? { location } : {}),
      })
      .where(eq(clubs.id, id));
    const [updated] = await tx.select().from(clubs).where(eq(clubs.id, id));
    const after = presentClub(updated);
    await audit(tx, actor, { action: 'update', entity: 'club', entityId: id, before, after });
    return { before, after };
  });
  if (JSON.stringify(result.before.location) !== JSON.stringify(result.after.location)) {
    bus?.publish('gate-push', { clubId: id, what: 'location' });
  }
  return result.after;
}

/**
 * An Israeli club's dealer number (company number), when the patch sets it or the country, must be
 * nine digits with a valid check digit (`isValidIsraeliDealerNumber`; docs/money.md "The dealer's
 * identity on tax documents"); empty is allowed here (the club then issues no tax documents).
 * @throws AppError VALIDATION_ERROR (400) `companyNumber` `invalidIsraeliCompanyNumber`
 */
function assertDealerNumber(settings: ClubSettings, patch: Partial<ClubSettings>): void {
  if (patch.companyNumber === undefined && patch.country === undefined) return;
  if (settings.country !== 'Israel' || settings.companyNumber === '') return;
  if (!isValidIsraeliDealerNumber(settings.companyNumber)) {
    throw validationError([{ path: 'companyNumber', message: 'invalidIsraeliCompanyNumber' }]);
  }
}

/**
 * The stored location of a valid location input, its time zone spelled as the
 * database spells it: reports and summaries convert in PostgreSQL
 * (`AT TIME ZONE`), so a zone Intl knows but the database does not is refused.
 * @throws AppError VALIDATION_ERROR (400) `location.timeZone` `invalidTimeZone`
 */
async function checkedLocation(db: Db, input: NonNullable<ClubPatch['location']>): Promise<ClubLocation> {
  const location = resolveLocation(input);
  const [zone] = await queryRows<{ name: string }>(
    db,
    sql`select name from pg_timezone_names where lower(name) = lower(${location.timeZone}) order by name = ${location.timeZone} desc limit 1`,
  );
  if (!zone) throw validationError([{ path: 'location.timeZone', message: 'invalidTimeZone' }]);
  return { ...location, timeZone: zone.name };
}
