import { and, asc, desc, eq, gte, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  CLIENT_CONTACT_KEYS,
  clientContactField,
  ClientStatus,
  normalizePhone,
  type ClientContactKey,
  type Client,
  type ClientInput,
  type ClientListQuery,
  type ClientPatch,
  type FieldError,
  isoDate,
  localParts,
  normalizeLocation,
  type ClientFull,
  type ClientHistoryItem,
  type ClientHistoryQuery,
  type ClientLink,
  type ClientPassword,
  type ClubLocation,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, clubs, groups } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { queryRows } from '../../db/query.js';
import { scoped } from '../../lib/scoped.js';
import { assertValid, dateErrors, int32Errors, pgError } from '../../lib/validation.js';

type ClientRow = typeof clients.$inferSelect;
/** A client row with its group's name, as the list and detail queries read it. */
export type ClientWithGroup = ClientRow & { groupName: string | null };

const DATE_FIELDS = ['subscriptionStart', 'subscriptionEnd', 'licenseExpiry'] as const;
/** Advisory-lock class of "client numbers and card serials of one club" (the club id is the key). */
const CLIENT_LOCK = 0x436c6e74;

/** What a client's row does not hold: biometrics, payment method, debts and children (read-only flags). */
export interface ClientExtras {
  hasFingerprint: boolean;
  hasFace: boolean;
  hasPaymentMethod: boolean;
  debtsTotal: number;
  childrenCount: number;
}
const NO_EXTRAS: ClientExtras = {
  hasFingerprint: false,
  hasFace: false,
  hasPaymentMethod: false,
  debtsTotal: 0,
  childrenCount: 0,
};

/** The contact fields of a row (CLIENT_CONTACT_FIELDS: the row's columns carry the same names and strings). */
function contactFields(row: ClientRow): Pick<Client, ClientContactKey> {
  return Object.fromEntries(CLIENT_CONTACT_KEYS.map((k) => [k, row[k]])) as Pick<Client, ClientContactKey>;
}

/** The body's fields that hold a phone: `phone` and the contact fields of kind 'phone' (CLIENT_CONTACT_FIELDS). */
const PHONE_FIELDS = ['phone', ...CLIENT_CONTACT_KEYS.filter((k) => clientContactField(k).kind === 'phone')] as const;

/**
 * A create or patch body with each phone it carries in E.164 ('' when empty,
 * seed 001 §3: phones are stored in one form); a field it leaves out stays out.
 */
function phonesInE164<T extends ClientPatch>(body: T): T {
  const out: Record<string, unknown> = { ...body };
  for (const k of PHONE_FIELDS) {
    const v = out[k];
    if (typeof v === 'string') out[k] = v ? (normalizePhone(v) ?? '') : '';
  }
  return out as T;
}

/** Maps a client row to the API shape (seed 001 §3 "Client"); the only place that does. */
export function presentClient(row: ClientWithGroup, extras: ClientExtras = NO_EXTRAS): Client {
  return {
    id: row.id,
    number: row.number,
    firstName: row.firstName,
    lastName: row.lastName,
    name: `${row.firstName} ${row.lastName}`.trim(),
    personalId: row.personalId,
    phone: row.phone,
    ...contactFields(row),
    groupId: row.groupId,
    groupName: row.groupName,
    clientType: row.clientType,
    cardSerial: row.cardSerial,
    subscriptionStart: row.subscriptionStart,
    subscriptionEnd: row.subscriptionEnd,
    licenseExpiry: row.licenseExpiry,
    status: row.status,
    messageToClient: row.messageToClient,
    balance: row.balance,
    createdAt: row.createdAt.toISOString(),
    cardType: row.cardType,
    specialPrice: row.specialPrice,
    parentId: row.parentId,
    clientCode: row.clientCode,
    hasEnrollPassword: row.enrollPassword !== '',
    allowEnrollFingerprint: row.allowEnrollFingerprint,
    allowEnrollCard: row.allowEnrollCard,
    allowEnrollFace: row.allowEnrollFace,
    tempBalance: row.tempBalance,
    subscriptionBalance: row.subscriptionBalance,
    bonusEntries: row.bonusEntries,
    ...extras,
  };
}

/**
 * The read-only flags of some clients, in one query: fingerprint and face
 * templates (gate area), a live payment method and open debts (money area),
 * non-deleted children. Run on a page's ids only, never on the whole club.
 */
export async function clientExtras(db: Db | Tx, clubId: number, ids: number[]): Promise<Map<number, ClientExtras>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{
    id: number;
    fp: boolean;
    face: boolean;
    pm: boolean;
    debts: number | string;
    children: number;
  }>(
    db,
    sql`select c.id,
      exists(select 1 from biometric_templates b where b.club_id = c.club_id and b.client_id = c.id and b.kind = 'fingerprint') as fp,
      exists(select 1 from biometric_templates b where b.club_id = c.club_id and b.client_id = c.id and b.kind = 'face') as face,
      exists(select 1 from payment_methods p where p.client_id = c.id and p.deleted = false) as pm,
      coalesce((select sum(d.amount - d.paid) from debts d
                 where d.club_id = c.club_id and d.client_id = c.id and d.deleted = false and d.amount > d.paid), 0)::float8 as debts,
      (select count(*) from clients k where k.club_id = c.club_id and k.parent_id = c.id and k.status <> 3)::int as children
    from clients c where c.club_id = ${clubId} and c.id in (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        hasFingerprint: r.fp === true,
        hasFace: r.face === true,
        hasPaymentMethod: r.pm === true,
        debtsTotal: Number(r.debts),
        childrenCount: Number(r.children),
      },
    ]),
  );
}

/** Presents rows with their extras (one extra query for all of them). */
export async function presentClients(db: Db | Tx, clubId: number, rows: ClientWithGroup[]): Promise<Client[]> {
  const extras = await clientExtras(
    db,
    clubId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentClient(r, extras.get(r.id)));
}

/** Today's date (YYYY-MM-DD) in the club's time zone. */
export async function clubToday(db: Db | Tx, clubId: number, now = new Date()): Promise<string> {
  const [c] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const tz = normalizeLocation(c?.location as ClubLocation | null).timeZone;
  const p = localParts(now, tz);
  return isoDate({ year: p.year, month: p.month, day: p.day });
}

function selectClients(db: Db | Tx) {
  return db
    .select({ client: clients, groupName: groups.name })
    .from(clients)
    .leftJoin(groups, eq(groups.id, clients.groupId));
}
function flatten(r: { client: ClientRow; groupName: string | null }): ClientWithGroup {
  return { ...r.client, groupName: r.groupName };
}

/** `%`, `_` and `\` taken literally inside a LIKE pattern. */
function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The text a client is found by: names, personal ID, card serial and phone,
 * lower-cased. Spelled exactly as the trigram index of migration
 * 0001_client_search (clients_search_trgm), so that the planner uses it.
 */
const searchText = sql`lower(${clients.firstName} || ' ' || ${clients.lastName} || ' ' || ${clients.personalId} || ' ' || ${clients.cardSerial} || ' ' || ${clients.phone})`;

/**
 * The search condition of the client list: every word of the term must
 * appear in the client's search text (case-insensitive, anywhere). A term of
 * digits and phone punctuation is one number: it also finds the client
 * number, and it is matched without its trunk zeros, so 050-1234567 finds
 * the stored +972501234567 (and a personal ID typed with a leading zero).
 */
export function searchCondition(term: string): SQL | undefined {
  const t = term.trim();
  if (!t) return undefined;
  if (/^[+\d\s().-]+$/.test(t) && /\d/.test(t)) {
    const digits = t.replace(/\D/g, '');
    const ors: SQL[] = [sql`${searchText} like ${`%${digits.replace(/^0+(?=\d)/, '')}%`}`];
    if (digits.length <= 9) ors.push(eq(clients.number, Number(digits)));
    const e164 = normalizePhone(t);
    if (e164) ors.push(eq(clients.phone, e164));
    return sql`(${sql.join(ors, sql` or `)})`;
  }
  const words = t.toLowerCase().split(/\s+/).slice(0, 6);
  return and(...words.map((w) => sql`${searchText} like ${`%${escapeLike(w)}%`}`));
}

function orderBy(sort: ClientListQuery['sort'], order: 'asc' | 'desc'): SQL[] {
  const dir = order === 'desc' ? desc : asc;
  switch (sort) {
    case 'name':
    case 'lastName':
      return [dir(clients.lastName), dir(clients.firstName), dir(clients.id)];
    case 'firstName':
      return [dir(clients.firstName), dir(clients.lastName), dir(clients.id)];
    case 'createdAt':
      return [dir(clients.createdAt), dir(clients.id)];
    case 'subscriptionEnd':
      // Clients without a subscription last in both directions.
      return [sql`${clients.subscriptionEnd} ${sql.raw(order)} nulls last`, dir(clients.id)];
    case 'licenseExpiry':
      return [sql`${clients.licenseExpiry} ${sql.raw(order)} nulls last`, dir(clients.id)];
    case 'balance':
      return [dir(clients.balance), dir(clients.id)];
    case 'cardSerial':
      return [dir(clients.cardSerial), dir(clients.id)];
    case 'status':
      return [dir(clients.status), dir(clients.number)];
    case 'number':
    default:
      return [dir(clients.number)];
  }
}

/** The WHERE of the client list and its export: club, deleted, filters and search. */
export async function clientListWhere(
  db: Db | Tx,
  clubId: number,
  q: Omit<ClientListQuery, 'page' | 'pageSize'>,
): Promise<SQL | undefined> {
  assertValid(int32Errors({ groupId: q.groupId, parentId: q.parentId }));
  const needsToday = q.subscription === 'valid' || q.subscription === 'expired' || q.licenseExpired != null;
  const today = needsToday ? await clubToday(db, clubId) : '';
  return scoped(db, clubId).where(
    clients,
    q.status != null
      ? eq(clients.status, q.status)
      : q.showDeleted
        ? undefined
        : ne(clients.status, ClientStatus.Deleted),
    q.groupId ? eq(clients.groupId, q.groupId) : undefined,
    q.clientType ? eq(clients.clientType, q.clientType) : undefined,
    q.parentId ? eq(clients.parentId, q.parentId) : undefined,
    q.subscription === 'valid' ? gte(clients.subscriptionEnd, today) : undefined,
    q.subscription === 'expired' ? lt(clients.subscriptionEnd, today) : undefined,
    q.subscription === 'none' ? isNull(clients.subscriptionEnd) : undefined,
    q.licenseExpired === true ? or(isNull(clients.licenseExpiry), lt(clients.licenseExpiry, today)) : undefined,
    q.licenseExpired === false ? gte(clients.licenseExpiry, today) : undefined,
    q.search ? searchCondition(q.search) : undefined,
  );
}

/** Rows of the client list in its order (the export reads them in batches). */
export function clientListRows(db: Db | Tx, where: SQL | undefined, q: Pick<ClientListQuery, 'sort' | 'order'>) {
  return selectClients(db)
    .where(where)
    .orderBy(...orderBy(q.sort, q.order));
}

/**
 * One page of the club's clients (GET /api/Client).
 * Deleted clients (status 3) are left out unless `showDeleted` or `status=3`;
 * filters: group, status, client type, parent, subscription valid / expired /
 * none and license expired, each as of today in the club's time zone;
 * `search` as described at `searchCondition`.
 * @returns the page (1-based `page`, `pageSize` rows) and the total count of matching clients
 */
export async function listClients(
  db: Db,
  clubId: number,
  q: ClientListQuery,
): Promise<{ items: Client[]; total: number }> {
  const where = await clientListWhere(db, clubId, q);
  const [rows, [{ total }]] = await Promise.all([
    clientListRows(db, where, q)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(clients)
      .where(where),
  ]);
  return { items: await presentClients(db, clubId, rows.map(flatten)), total };
}

/**
 * The club's client `id` with its group name, deleted ones included.
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function clientRow(db: Db | Tx, clubId: number, id: number): Promise<ClientWithGroup> {
  const [row] = await selectClients(db).where(scoped(db, clubId).where(clients, eq(clients.id, id)));
  if (!row) throw notFound('client');
  return flatten(row);
}

/**
 * One client of the club, deleted ones included (GET /api/Client/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function getClient(db: Db | Tx, clubId: number, id: number): Promise<Client> {
  const [client] = await presentClients(db, clubId, [await clientRow(db, clubId, id)]);
  return client;
}

/**
 * Field errors of a client's groupId, parent, dates and date order (the
 * merged state for a patch). A parent must be another client of the club
 * that is not deleted and not one of the client's own descendants.
 */
async function clientErrors(
  tx: Tx,
  clubId: number,
  c: Partial<ClientInput>,
  changed: Partial<ClientInput>,
  selfId?: number,
): Promise<FieldError[]> {
  assertValid(int32Errors(changed)); // before any query uses the numbers
  const errors = dateErrors(changed, DATE_FIELDS);
  if (changed.groupId != null) {
    const [g] = await tx
      .select({ id: groups.id })
      .from(groups)
      .where(scoped(tx, clubId).live(groups, eq(groups.id, changed.groupId)));
    if (!g) errors.push({ path: 'groupId', message: 'unknownGroup' });
  }
  if (c.subscriptionStart && c.subscriptionEnd && c.subscriptionStart > c.subscriptionEnd) {
    errors.push({ path: 'subscriptionEnd', message: 'dateRangeOrder' });
  }
  if (changed.parentId != null && !(await parentAllowed(tx, clubId, changed.parentId, selfId))) {
    errors.push({ path: 'parentId', message: 'invalidParent' });
  }
  return errors;
}

/** Whether `parentId` may be the parent of `selfId`: a live client of the club, not selfId nor below it. */
async function parentAllowed(tx: Tx, clubId: number, parentId: number, selfId?: number): Promise<boolean> {
  if (parentId === selfId) return false;
  const chain = await queryRows<{ id: number; status: number; depth: number }>(
    tx,
    sql`with recursive up(id, parent_id, status, depth) as (
      select id, parent_id, status, 0 from clients where club_id = ${clubId} and id = ${parentId}
      union all
      select c.id, c.parent_id, c.status, up.depth + 1 from clients c join up on c.id = up.parent_id
       where c.club_id = ${clubId} and up.depth < 50)
    select id, status, depth from up`,
  );
  const parent = chain.find((r) => Number(r.depth) === 0);
  if (!parent || Number(parent.status) === ClientStatus.Deleted) return false;
  return selfId == null || !chain.some((r) => Number(r.id) === selfId);
}

/**
 * Refuses a value of a unique client column (card serial, enrolment code)
 * held by another non-deleted client of the club: throws `taken()` (409
 * CARD_TAKEN or PASSWORD_TAKEN, seed 001 §5). An empty value is never taken.
 */
async function assertFree(
  tx: Tx,
  clubId: number,
  column: typeof clients.cardSerial | typeof clients.enrollPassword,
  value: string,
  taken: () => AppError,
  exceptId?: number,
): Promise<void> {
  if (!value) return;
  const [other] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(scoped(tx, clubId).live(clients, eq(column, value), exceptId ? ne(clients.id, exceptId) : undefined))
    .limit(1);
  if (other) throw taken();
}

function passwordTaken(): AppError {
  return new AppError('PASSWORD_TAKEN', 'password taken', [{ path: 'enrollPassword', message: 'passwordTaken' }]);
}

function cardTaken(): AppError {
  return new AppError('CARD_TAKEN', 'The card is held by another client', [
    { path: 'cardSerial', message: 'cardTaken' },
  ]);
}

/** The unique index is the last word when two requests race for one card. */
function mapUniqueViolation(err: unknown): never {
  const { code, constraint } = pgError(err);
  if (code === '23505' && constraint === 'clients_club_card') throw cardTaken();
  if (code === '23505' && constraint === 'clients_club_enroll_password') throw passwordTaken();
  throw err;
}

/** What the audit log keeps of a client: the presented row, card serial masked (DESIGN §10). */
function auditSnapshot(c: Client): Record<string, unknown> {
  const { cardSerial, ...rest } = c;
  return { ...rest, cardSerial: cardSerial ? `…${cardSerial.slice(-4)}` : '' };
}

/**
 * Creates a client of the caller's club (POST /api/Client).
 * The client number is the club's next (highest + 1), taken under a per-club
 * lock in the same transaction; the phone is stored in E.164.
 * @throws AppError VALIDATION_ERROR (400) for a group not of this club, an impossible date or start after end
 * @throws AppError CARD_TAKEN (409) when a non-deleted client of the club holds the card serial
 * @throws AppError PASSWORD_TAKEN (409) when a non-deleted client of the club holds the enrolment code
 */
export async function createClient(db: Db, actor: Actor, input: ClientInput): Promise<Client> {
  const clubId = actor.clubId;
  return db
    .transaction(async (tx) => {
      assertValid(await clientErrors(tx, clubId, input, input));
      await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK}::int, ${clubId}::int)`);
      if (input.status !== ClientStatus.Deleted) {
        await assertFree(tx, clubId, clients.cardSerial, input.cardSerial, cardTaken);
        await assertFree(tx, clubId, clients.enrollPassword, input.enrollPassword, passwordTaken);
      }
      const [{ next }] = await tx
        .select({ next: sql<number>`coalesce(max(${clients.number}), 0)::int + 1` })
        .from(clients)
        .where(scoped(tx, clubId).where(clients));
      const [row] = await tx
        .insert(clients)
        .values({ ...phonesInE164(input), clubId, number: next })
        .returning({ id: clients.id });
      const created = await getClient(tx, clubId, row.id);
      await audit(tx, actor, {
        action: 'create',
        entity: 'client',
        entityId: created.id,
        after: auditSnapshot(created),
      });
      return created;
    })
    .catch(mapUniqueViolation);
}

/**
 * Changes the given fields of a client of the caller's club (PATCH /api/Client/{id}).
 * Status 3 deletes (audit action 'delete'), leaving status 3 restores ('restore').
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 * @throws AppError VALIDATION_ERROR (400) for a group not of this club, an impossible date or start after end
 * @throws AppError CARD_TAKEN (409) when the card, or a restored client's card, is held by another non-deleted client
 * @throws AppError PASSWORD_TAKEN (409) likewise for the enrolment code
 */
export async function updateClient(db: Db, actor: Actor, id: number, patch: ClientPatch): Promise<Client> {
  const clubId = actor.clubId;
  return db
    .transaction(async (tx) => {
      await scoped(tx, clubId).one(clients, id, 'client', { forUpdate: true });
      const beforeRow = await clientRow(tx, clubId, id);
      const before = await getClient(tx, clubId, id);
      const merged = { ...before, enrollPassword: beforeRow.enrollPassword, ...patch };
      assertValid(await clientErrors(tx, clubId, merged, patch, id));
      const cardMatters =
        merged.status !== ClientStatus.Deleted &&
        merged.cardSerial !== '' &&
        (patch.cardSerial !== undefined || before.status === ClientStatus.Deleted);
      if (cardMatters) {
        await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK}::int, ${clubId}::int)`);
        await assertFree(tx, clubId, clients.cardSerial, merged.cardSerial, cardTaken, id);
      }
      const codeMatters =
        merged.status !== ClientStatus.Deleted &&
        merged.enrollPassword !== '' &&
        (patch.enrollPassword !== undefined || before.status === ClientStatus.Deleted);
      if (codeMatters) await assertFree(tx, clubId, clients.enrollPassword, merged.enrollPassword, passwordTaken, id);
      const values = phonesInE164(patch);
      if (Object.keys(values).length > 0) await tx.update(clients).set(values).where(eq(clients.id, id));
      const after = await getClient(tx, clubId, id);
      const action =
        after.status === ClientStatus.Deleted && before.status !== ClientStatus.Deleted
          ? 'delete'
          : before.status === ClientStatus.Deleted && after.status !== ClientStatus.Deleted
            ? 'restore'
            : 'update';
      await audit(tx, actor, {
        action,
        entity: 'client',
        entityId: id,
        before: auditSnapshot(before),
        after: auditSnapshot(after),
      });
      return after;
    })
    .catch(mapUniqueViolation);
}

function link(r: {
  id: number;
  number: number;
  firstName: string;
  lastName: string;
  status: number;
  personalId: string;
}): ClientLink {
  return {
    id: r.id,
    number: r.number,
    name: `${r.firstName} ${r.lastName}`.trim(),
    status: r.status,
    personalId: r.personalId,
  };
}

/**
 * The parent chain of a client, nearest first (GET /api/Client/GetParents/{id}).
 * Empty when the client has no parent; cycles cannot be stored (clientErrors).
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function getParents(db: Db | Tx, clubId: number, id: number): Promise<ClientLink[]> {
  await clientRow(db, clubId, id);
  const rows = await queryRows<{
    id: number;
    number: number;
    first_name: string;
    last_name: string;
    status: number;
    personal_id: string;
  }>(
    db,
    sql`with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from clients where club_id = ${clubId} and id = ${id}
      union all
      select c.id, c.parent_id, up.depth + 1 from clients c join up on c.id = up.parent_id
       where c.club_id = ${clubId} and up.depth < 50)
    select c.id, c.number, c.first_name, c.last_name, c.status, c.personal_id
      from up join clients c on c.id = up.id where up.depth > 0 order by up.depth`,
  );
  return rows.map((r) =>
    link({
      id: Number(r.id),
      number: Number(r.number),
      firstName: r.first_name,
      lastName: r.last_name,
      status: Number(r.status),
      personalId: r.personal_id,
    }),
  );
}

/**
 * A client with its group, parent and non-deleted children (GET /api/GetClientFull/{id}).
 * The enrolment code is included only for callers who may edit clients (DESIGN §10).
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function getClientFull(db: Db, clubId: number, id: number, canEdit: boolean): Promise<ClientFull> {
  const row = await clientRow(db, clubId, id);
  const [client, group, parent, children] = await Promise.all([
    getClient(db, clubId, id),
    row.groupId
      ? db
          .select({ id: groups.id, name: groups.name, color: groups.color, entranceState: groups.entranceState })
          .from(groups)
          .where(scoped(db, clubId).where(groups, eq(groups.id, row.groupId)))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    row.parentId
      ? db
          .select()
          .from(clients)
          .where(scoped(db, clubId).where(clients, eq(clients.id, row.parentId)))
          .then((r) => (r[0] ? link(r[0]) : null))
      : Promise.resolve(null),
    db
      .select()
      .from(clients)
      .where(scoped(db, clubId).live(clients, eq(clients.parentId, id)))
      .orderBy(asc(clients.number))
      .then((r) => r.map(link)),
  ]);
  return { client, enrollPassword: canEdit ? row.enrollPassword : null, group, parent, children };
}

/** The club's enrolment codes of non-deleted clients (GET /api/Client/GetAllPasswords; DESIGN §10). */
export async function getAllPasswords(db: Db, clubId: number): Promise<ClientPassword[]> {
  const rows = await db
    .select({
      id: clients.id,
      number: clients.number,
      firstName: clients.firstName,
      lastName: clients.lastName,
      enrollPassword: clients.enrollPassword,
    })
    .from(clients)
    .where(scoped(db, clubId).live(clients, ne(clients.enrollPassword, '')))
    .orderBy(asc(clients.number));
  return rows.map((r) => ({
    clientId: r.id,
    number: r.number,
    name: `${r.firstName} ${r.lastName}`.trim(),
    enrollPassword: r.enrollPassword,
  }));
}

/**
 * A client's history, newest first (GET /api/Client/GetClientHistory/{id}):
 * entrances (status, reason, terminal, money taken), staff changes from the
 * audit log (action, user, before and after) and purchases (total, payment
 * status), merged and paged in one query.
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function getClientHistory(
  db: Db,
  clubId: number,
  id: number,
  q: ClientHistoryQuery,
): Promise<{ items: ClientHistoryItem[]; total: number }> {
  await clientRow(db, clubId, id);
  const union = sql`
      select 'entrance' as kind, e.id::text as id, e.at, e.status::int as status, e.reason::int as reason,
             t.name as terminal_name, null::text as action, null::text as user_name,
             null::jsonb as before, null::jsonb as after, e.amount::int as amount
        from entrance_logs e left join terminals t on t.id = e.terminal_id
       where e.client_id = ${id} and e.club_id = ${clubId}
      union all
      select 'change', a.id::text, a.at, null, null, null, a.action, u.username, a.before, a.after, 0
        from audit_log a left join users u on u.id = a.user_id
       where a.club_id = ${clubId} and a.entity = 'client' and a.entity_id = ${String(id)}
      union all
      select 'purchase', p.id::text, p.at, p.payment_status::int, null, t.name, null, u.username, null, null, p.total
        from purchases p left join terminals t on t.id = p.terminal_id left join users u on u.id = p.user_id
       where p.club_id = ${clubId} and p.client_id = ${id}`;
  type H = {
    kind: ClientHistoryItem['kind'];
    id: string;
    at: Date | string;
    status: number | null;
    reason: number | null;
    terminal_name: string | null;
    action: string | null;
    user_name: string | null;
    before: unknown;
    after: unknown;
    amount: number | null;
  };
  const [rows, count] = await Promise.all([
    queryRows<H>(
      db,
      sql`select * from (${union}) h order by h.at desc, h.kind, h.id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${union}) h`),
  ]);
  const total = Number(count[0].n);
  return {
    total,
    items: rows.map((r) => ({
      kind: r.kind,
      id: `${r.kind}-${r.id}`,
      at: new Date(r.at).toISOString(),
      status: r.status == null ? null : Number(r.status),
      reason: r.reason == null ? null : Number(r.reason),
      terminalName: r.terminal_name,
      action: r.action,
      userName: r.user_name,
      before: r.before ?? null,
      after: r.after ?? null,
      amount: Number(r.amount ?? 0),
    })),
  };
}
