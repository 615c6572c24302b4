import { eq, sql, type SQL } from 'drizzle-orm';
import {
  KALA_CLUB_FROM,
  USA_CLUB_FROM,
  type ClubBilling,
  type ClubCharge,
  type ClubChargeListQuery,
  type ClubChargeStatus,
  type OperatorClubSettings,
  type OperatorClubSettingsPatch,
  type OperatorTerminal,
  type OperatorTerminalQuery,
  type StartChargeClubInput,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { clubCards, clubCharges, clubs } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import { chargeOnce } from '../../integrations/clearing/charges.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { licensePrice } from '../licenses/licenses.service.js';
import { clubSettings, presentClub, updateClub } from '../club/club.service.js';
import { ONLINE_WITHIN_SECONDS } from './clubs.service.js';

/**
 * Charging clubs, the terminal fleet and the operator-only settings (issue 17;
 * seed 000 §7 `POST /Club/StartChargeClub`; docs/operator.md).
 */

// ---------------------------------------------------------------- charging clubs

/** The provider's idempotency key of one attempt to charge a club for a year. */
export const clubChargeKey = (clubId: number, year: number, attempt: number) =>
  `club-yearly:${clubId}:${year}:${attempt}`;

interface ChargeViewRow extends Record<string, unknown> {
  id: number;
  club_id: number;
  external_club_id: number;
  club_name: string;
  year: number;
  attempt: number;
  quantity: number;
  price: number;
  amount: number;
  status: ClubChargeStatus;
  error: string | null;
  last_four: string;
  created_at: Date | string;
}

/**
 * The attempts as shown: the status follows the card charge as it settles
 * later (an uncertain outcome settled by safer payments, a refund), so a
 * charge refunded or found not charged reads 'declined'.
 */
function chargeRows(where: SQL, limit = 500): SQL {
  return sql`select cc.id, cc.club_id, c.external_club_id, c.name as club_name, cc.year, cc.attempt, cc.quantity,
      cc.price, cc.amount, cc.last_four, cc.created_at,
      case when ch.id is null then cc.status
           when ch.status = 'approved' then 'approved'
           when ch.status in ('pending', 'uncertain') then 'uncertain'
           else 'declined' end as status,
      coalesce(case when ch.status in ('refunded', 'refunding') then 'refunded' end, cc.error, ch.error) as error
    from club_charges cc
    join clubs c on c.id = cc.club_id
    left join charges ch on ch.id = cc.charge_id and ch.club_id = cc.club_id
    where ${where}
    order by cc.created_at desc, cc.id desc
    limit ${limit}`;
}

async function readCharges(db: Db, where: SQL, limit?: number): Promise<ClubCharge[]> {
  const rows = await queryRows<ChargeViewRow>(db, chargeRows(where, limit));
  return rows.map((r) => ({
    id: r.id,
    clubId: r.club_id,
    externalClubId: r.external_club_id,
    clubName: r.club_name,
    year: r.year,
    attempt: r.attempt,
    quantity: r.quantity,
    price: r.price,
    amount: r.amount,
    status: r.status,
    error: r.error,
    lastFour: r.last_four,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * Licenses a club is charged for in a year when the operator names no
 * quantity: its clients (not deleted) holding a license valid on or after
 * 1 January of the year (clients.license_expiry).
 */
async function licensedClients(db: Db, clubId: number, year: number): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from clients where club_id = ${clubId} and status <> 3
      and license_expiry >= make_date(${year}, 1, 1)`,
  );
  return Number(r?.n ?? 0);
}

/**
 * `POST /Operator/Club/{id}/StartChargeClub`: charges a club's stored card for its licenses
 * of `year` (quantity × the yearly license price: the club's
 * `licenseYearlyPrice` setting, else its license price) through the clearing
 * provider, once: while an attempt of that year is approved or uncertain it
 * is answered again and nothing is charged; after a failed one (declined, no
 * stored card, refunded) a new attempt is made. Each attempt has its own
 * idempotency key ({@link clubChargeKey}), so a repeated or concurrent call
 * charges the card at most once per attempt. Every attempt is a row of
 * `club_charges` (the club sees it on its licenses page) and an audit row in
 * the club under the operator.
 * @throws AppError NOT_FOUND (404) for an unknown club;
 *   VALIDATION_ERROR (400, `quantity` `nothingToCharge`) when nothing is to be charged
 */
export async function startChargeClub(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  clubId: number,
  input: StartChargeClubInput,
): Promise<ClubCharge> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  const byYear = sql`cc.club_id = ${club.id} and cc.year = ${input.year}`;
  const [last] = await readCharges(db, byYear, 1);
  if (last && (last.status === 'approved' || last.status === 'uncertain')) return last;
  const attempt = (last?.attempt ?? 0) + 1;
  const settings = clubSettings(club);
  const price = settings.licenseYearlyPrice > 0 ? settings.licenseYearlyPrice : await licensePrice(db, club.id);
  const quantity = input.quantity ?? (await licensedClients(db, club.id, input.year));
  if (quantity === 0) throw validationError([{ path: 'quantity', message: 'nothingToCharge' }]);
  const amount = quantity * price;
  const [card] = await db.select().from(clubCards).where(eq(clubCards.clubId, club.id));
  const row = { clubId: club.id, year: input.year, attempt, quantity, price, amount, userId: actor.userId };
  let result: { status: ClubChargeStatus; error: string | null; chargeId: number | null; lastFour: string };
  if (!card) {
    result = { status: 'noCard', error: null, chargeId: null, lastFour: '' };
  } else {
    const charge = await chargeOnce(db, provider, {
      clubId: club.id,
      clientId: null,
      idempotencyKey: clubChargeKey(club.id, input.year, attempt),
      token: card.token,
      amount,
      currency: club.currency,
      lastFour: card.lastFour,
      brand: card.brand,
    });
    result = {
      status: charge.status === 'approved' ? 'approved' : charge.status === 'declined' ? 'declined' : 'uncertain',
      error: charge.status === 'declined' ? (charge.error ?? 'declined') : null,
      chargeId: charge.id,
      lastFour: card.lastFour,
    };
  }
  // A concurrent call of the same attempt wrote it first: its row stands (the card was charged once).
  const [inserted] = await db
    .insert(clubCharges)
    .values({ ...row, ...result })
    .onConflictDoNothing({ target: [clubCharges.clubId, clubCharges.year, clubCharges.attempt] })
    .returning({ id: clubCharges.id });
  if (inserted) {
    await audit(
      db,
      { clubId: club.id, userId: actor.userId, ip: actor.ip },
      { action: 'create', entity: 'clubCharge', entityId: inserted.id, after: { ...row, ...result } },
    );
  }
  const [answer] = await readCharges(db, sql`${byYear} and cc.attempt = ${attempt}`, 1);
  return answer;
}

/** `GET /Operator/ClubCharge`: attempts of one club, or failed ones, or all; newest first, at most 500. */
export async function listClubCharges(db: Db, q: ClubChargeListQuery): Promise<ClubCharge[]> {
  const parts: SQL[] = [sql`true`];
  if (q.clubId) parts.push(sql`cc.club_id = ${q.clubId}`);
  const list = await readCharges(db, sql.join(parts, sql` and `));
  return q.failed === undefined ? list : list.filter((c) => (c.status !== 'approved') === q.failed);
}

/** `GET /License/Charges`: the signed-in club's stored card (no token) and its charges, newest first. */
export async function clubBilling(db: Db, clubId: number): Promise<ClubBilling> {
  const [card] = await db.select().from(clubCards).where(eq(clubCards.clubId, clubId));
  return {
    card: card
      ? { lastFour: card.lastFour, brand: card.brand, expiry: card.expiry, savedAt: card.savedAt.toISOString() }
      : null,
    charges: await readCharges(db, sql`cc.club_id = ${clubId}`, 100),
  };
}

// ---------------------------------------------------------------- terminal fleet

interface FleetRow extends Record<string, unknown> {
  id: number;
  club_id: number;
  external_club_id: number;
  club_name: string;
  name: string;
  serial: string;
  approved: boolean;
  online: boolean;
  last_connection: Date | string | null;
  software_version: string | null;
  latest: string | null;
}

/**
 * `GET /Operator/Terminal`: every club's terminals (not deleted) by club and
 * name, with the connection state (linked and reported within three
 * heartbeats and a minute, as the clubs list), last connection and the
 * software version of the last hello; `offline` keeps those not online.
 */
export async function listFleet(db: Db, q: OperatorTerminalQuery): Promise<OperatorTerminal[]> {
  const online = sql`(t.connected_instance is not null
    and t.last_connection > now() - make_interval(secs => ${ONLINE_WITHIN_SECONDS}))`;
  const parts: SQL[] = [sql`not t.deleted`];
  if (q.offline !== undefined) parts.push(q.offline ? sql`not ${online}` : online);
  if (q.class === 'kala') parts.push(sql`c.external_club_id >= ${KALA_CLUB_FROM}`);
  if (q.class === 'usa')
    parts.push(sql`c.external_club_id >= ${USA_CLUB_FROM} and c.external_club_id < ${KALA_CLUB_FROM}`);
  if (q.class === 'regular') parts.push(sql`c.external_club_id < ${USA_CLUB_FROM}`);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    parts.push(sql`(t.name ilike ${like} or t.serial ilike ${like} or c.name ilike ${like}
      or c.external_club_id::text like ${like})`);
  }
  const rows = await queryRows<FleetRow>(
    db,
    sql`select t.id, t.club_id, c.external_club_id, c.name as club_name, t.name, t.serial, t.approved,
        ${online} as online, t.last_connection, t.software_version,
        (select v.version from script_versions v order by v.published_at desc, v.id desc limit 1) as latest
      from terminals t join clubs c on c.id = t.club_id
      where ${sql.join(parts, sql` and `)}
      order by c.external_club_id, t.name, t.id
      limit 5000`,
  );
  return rows.map((r) => ({
    id: r.id,
    clubId: r.club_id,
    externalClubId: r.external_club_id,
    clubName: r.club_name,
    name: r.name,
    serial: r.serial,
    approved: r.approved,
    online: r.online === true || (r.online as unknown) === 't',
    lastConnection: r.last_connection == null ? null : new Date(r.last_connection).toISOString(),
    softwareVersion: r.software_version,
    outdated: r.software_version != null && r.latest != null && r.software_version !== r.latest,
  }));
}

// ---------------------------------------------------------------- operator-only settings

/** The operator-only settings of a club (GET /Operator/Club/{id}/Settings). @throws NOT_FOUND (404) */
export async function operatorClubSettings(db: Db, id: number): Promise<OperatorClubSettings> {
  const [row] = await db.select().from(clubs).where(eq(clubs.id, id));
  if (!row) throw notFound('club');
  const c = presentClub(row);
  return {
    licenseYearlyPrice: c.licenseYearlyPrice,
    currency: c.currency,
    isKalaSubscriptionEnabled: c.isKalaSubscriptionEnabled,
    subscriptionTvilotKalaQty: c.subscriptionTvilotKalaQty,
    licancesAmount: c.licancesAmount,
  };
}

/**
 * Changes a club's operator-only settings (PATCH /Operator/Club/{id}/Settings)
 * through the club's own settings service, acting on that club as the
 * operator: validated whole, audited in the club under the operator.
 * @throws AppError NOT_FOUND (404) for an unknown club
 */
export async function updateOperatorClubSettings(
  db: Db,
  actor: Actor,
  id: number,
  patch: OperatorClubSettingsPatch,
): Promise<OperatorClubSettings> {
  const [row] = await db.select({ e: clubs.externalClubId }).from(clubs).where(eq(clubs.id, id));
  if (!row) throw notFound('club');
  await updateClub(db, null, { ...actor, clubId: id, externalClubId: row.e }, id, patch);
  return operatorClubSettings(db, id);
}
