import { eq, sql, type SQL } from 'drizzle-orm';
import {
  allPermissions,
  clubClassOf,
  clubDefaults,
  EntranceStatus,
  HEARTBEAT_INTERVAL_SECONDS,
  KALA_CLUB_FROM,
  UserLevel,
  UserRole,
  USA_CLUB_FROM,
  type Country,
  type OperatorClub,
  type OperatorClubCreated,
  type OperatorClubInput,
  type OperatorClubListQuery,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import type { EventBus } from '../../lib/event-bus.js';
import { announceSessionEnd, endSessionRows } from '../../lib/sessions.js';
import { clubs, users } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { hashPassword, randomSecret } from '../../lib/password.js';
import { queryRows } from '../../db/query.js';

/**
 * The operator's clubs (issue 17 "Clubs"; docs/operator.md): list with
 * licenses, activity and terminals, create with a first admin, disable and
 * re-enable. Audit rows of a club's change carry that club and the operator.
 */

/** A generated sign-in password: 16 URL-safe characters (96 random bits). */
export function generatePassword(): string {
  return randomSecret(12);
}

/**
 * Creates a club (externalClubId, name; the country's defaults — currency,
 * location and with it time zone and Israel flag, `clubDefaults`: the USA
 * class 4000–6999 is USA unless a country is given, others Israel) and its
 * first admin user with a generated password, in one transaction.
 * @throws AppError VALIDATION_ERROR (400) for a non-positive id or an empty name
 * @throws AppError CLUB_EXISTS (409) when the externalClubId exists
 */
export async function createClubWithAdmin(
  db: Db,
  opts: { externalClubId: number; name: string; username?: string; licensesAmount?: number; country?: Country },
): Promise<{ clubId: number; externalClubId: number; username: string; password: string }> {
  const { externalClubId } = opts;
  if (!Number.isInteger(externalClubId) || externalClubId <= 0) {
    throw new AppError('VALIDATION_ERROR', '--club must be a positive whole number');
  }
  const name = opts.name.trim();
  if (!name) throw new AppError('VALIDATION_ERROR', '--club-name is required');
  const username = (opts.username ?? 'admin').trim();
  const [exists] = await db
    .select({ id: clubs.id })
    .from(clubs)
    .where(eq(clubs.externalClubId, externalClubId))
    .limit(1);
  if (exists) throw new AppError('CLUB_EXISTS', `Club ${externalClubId} already exists`);
  const defaults = clubDefaults(externalClubId, opts.country);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const clubId = await db.transaction(async (tx) => {
    const [club] = await tx
      .insert(clubs)
      .values({
        externalClubId,
        name,
        licensesAmount: opts.licensesAmount ?? 0,
        settings: { country: defaults.country },
        currency: defaults.currency,
        location: defaults.location,
      })
      .returning({ id: clubs.id });
    await tx.insert(users).values({
      clubId: club.id,
      username,
      passwordHash,
      name,
      role: UserRole.MANAGER,
      level: UserLevel.Regular,
      isAdmin: true,
      permissions: allPermissions(true),
    });
    return club.id;
  });
  return { clubId, externalClubId, username, password };
}

/** A terminal counts as online when it reported within this many seconds (three heartbeats and a minute). */
export const ONLINE_WITHIN_SECONDS = 3 * HEARTBEAT_INTERVAL_SECONDS + 60;

interface ClubStatsRow extends Record<string, unknown> {
  id: number;
  external_club_id: number;
  name: string;
  country: string | null;
  licenses_amount: number;
  active_clients: number;
  terminals_online: number;
  terminals_total: number;
  last_activity: Date | string | null;
  disabled_at: Date | string | null;
}

const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

function present(r: ClubStatsRow): OperatorClub {
  return {
    id: r.id,
    externalClubId: r.external_club_id,
    name: r.name,
    class: clubClassOf(r.external_club_id),
    country: (r.country ?? clubDefaults(r.external_club_id).country) as Country,
    licensesAmount: r.licenses_amount,
    activeClients: Number(r.active_clients),
    terminalsOnline: Number(r.terminals_online),
    terminalsTotal: Number(r.terminals_total),
    lastActivity: iso(r.last_activity),
    disabledAt: iso(r.disabled_at),
  };
}

/** The filter of the list as SQL conditions on `c` (clubs). */
function listFilter(q: OperatorClubListQuery): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    parts.push(sql`(c.name ilike ${like} or c.external_club_id::text like ${like})`);
  }
  if (q.class === 'kala') parts.push(sql`c.external_club_id >= ${KALA_CLUB_FROM}`);
  if (q.class === 'usa')
    parts.push(sql`c.external_club_id >= ${USA_CLUB_FROM} and c.external_club_id < ${KALA_CLUB_FROM}`);
  if (q.class === 'regular') parts.push(sql`c.external_club_id < ${USA_CLUB_FROM}`);
  return sql.join(parts, sql` and `);
}

/** The country as stored, else the class's default (USA for 4000–6999, Israel otherwise). */
const COUNTRY_SQL = sql`coalesce(c.settings->>'country', case when c.external_club_id >= ${USA_CLUB_FROM} and c.external_club_id < ${KALA_CLUB_FROM} then 'USA' else 'Israel' end)`;

async function clubStats(db: Db, where: SQL): Promise<OperatorClub[]> {
  const rows = await queryRows<ClubStatsRow>(
    db,
    sql`select c.id, c.external_club_id, c.name, ${COUNTRY_SQL} as country, c.licenses_amount, c.disabled_at,
      (select count(distinct e.client_id)::int from entrance_logs e
        where e.club_id = c.id and e.at >= now() - interval '30 days' and e.status = ${EntranceStatus.Approved}
          and e.client_id is not null) as active_clients,
      (select count(*)::int from terminals t where t.club_id = c.id and not t.deleted) as terminals_total,
      (select count(*)::int from terminals t where t.club_id = c.id and not t.deleted
          and t.connected_instance is not null
          and t.last_connection > now() - make_interval(secs => ${ONLINE_WITHIN_SECONDS})) as terminals_online,
      greatest(
        (select max(a.at) from audit_log a where a.club_id = c.id),
        (select max(t.last_connection) from terminals t where t.club_id = c.id)
      ) as last_activity
    from clubs c where ${where} order by c.external_club_id`,
  );
  return rows.map(present);
}

/** Every club matching the filter, by externalClubId (GET /Operator/Club). */
export async function listOperatorClubs(db: Db, query: OperatorClubListQuery): Promise<OperatorClub[]> {
  const where = query.country ? sql`${listFilter(query)} and ${COUNTRY_SQL} = ${query.country}` : listFilter(query);
  return clubStats(db, where);
}

/** One club as the operator's list shows it. @throws AppError NOT_FOUND (404) for an unknown id */
export async function operatorClub(db: Db, id: number): Promise<OperatorClub> {
  const [club] = await clubStats(db, sql`c.id = ${id}`);
  if (!club) throw notFound('club');
  return club;
}

/**
 * Creates a club and its first admin for the operator (POST /Operator/Club).
 * Audited in the new club under the operator. The password is in the answer only.
 * @throws AppError CLUB_EXISTS (409) when the externalClubId exists
 */
export async function createOperatorClub(db: Db, actor: Actor, input: OperatorClubInput): Promise<OperatorClubCreated> {
  const created = await createClubWithAdmin(db, {
    externalClubId: input.externalClubId,
    name: input.name,
    country: input.country,
    username: input.adminUsername,
  });
  const club = await operatorClub(db, created.clubId);
  await audit(
    db,
    { clubId: club.id, userId: actor.userId, ip: actor.ip },
    {
      action: 'create',
      entity: 'club',
      entityId: club.id,
      after: { externalClubId: club.externalClubId, name: club.name, country: club.country, admin: created.username },
    },
  );
  return { club, username: created.username, password: created.password };
}

/**
 * Disables (`disabled` true) or re-enables a club (POST /Operator/Club/{id}/Disable,
 * /Enable): nothing is deleted; while disabled its users' sign-ins are refused
 * and its terminals' links too. Disabling ends every session of its users
 * (their tokens and live sockets stop at once, docs/security.md "Sessions");
 * enabling brings none back. Audited in the club under the operator.
 * @throws AppError NOT_FOUND (404) for an unknown club id
 */
export async function setClubDisabled(
  db: Db,
  bus: EventBus,
  actor: Actor,
  id: number,
  disabled: boolean,
): Promise<OperatorClub> {
  const before = await operatorClub(db, id);
  if ((before.disabledAt != null) === disabled) return before;
  await db.transaction(async (tx) => {
    await tx
      .update(clubs)
      .set({ disabledAt: disabled ? new Date() : null })
      .where(eq(clubs.id, id));
    if (disabled) await endSessionRows(tx, { clubId: id }, 'clubDisabled');
    await audit(
      tx,
      { clubId: id, userId: actor.userId, ip: actor.ip },
      {
        action: disabled ? 'disable' : 'enable',
        entity: 'club',
        entityId: id,
        before: { disabledAt: before.disabledAt },
      },
    );
  });
  if (disabled) announceSessionEnd(bus, { clubId: id });
  return operatorClub(db, id);
}
