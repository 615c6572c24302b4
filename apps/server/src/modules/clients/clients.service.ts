import { and, asc, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  ClientStatus,
  normalizePhone,
  type Client,
  type ClientInput,
  type ClientListQuery,
  type ClientPatch,
  type FieldError,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, groups } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { assertValid, dateErrors, int32Errors, pgError } from '../../lib/validation.js';

type ClientRow = typeof clients.$inferSelect;
/** A client row with its group's name, as the list and detail queries read it. */
export type ClientWithGroup = ClientRow & { groupName: string | null };

const DATE_FIELDS = ['subscriptionStart', 'subscriptionEnd', 'licenseExpiry'] as const;
/** Advisory-lock class of "client numbers and card serials of one club" (the club id is the key). */
const CLIENT_LOCK = 0x436c6e74;

/** Maps a client row to the API shape (seed 001 §3 "Client"); the only place that does. */
export function presentClient(row: ClientWithGroup): Client {
  return {
    id: row.id,
    number: row.number,
    firstName: row.firstName,
    lastName: row.lastName,
    name: `${row.firstName} ${row.lastName}`.trim(),
    personalId: row.personalId,
    phone: row.phone,
    city: row.city,
    address: row.address,
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
  };
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
function searchCondition(term: string): SQL | undefined {
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
    case 'number':
    default:
      return [dir(clients.number)];
  }
}

/**
 * One page of the club's clients (GET /api/Client).
 * Deleted clients (status 3) are left out unless `showDeleted`; `groupId`
 * keeps one group's clients; `search` as described at `searchCondition`.
 * @returns the page (1-based `page`, `pageSize` rows) and the total count of matching clients
 */
export async function listClients(
  db: Db,
  clubId: number,
  q: ClientListQuery,
): Promise<{ items: Client[]; total: number }> {
  assertValid(int32Errors({ groupId: q.groupId }));
  const where = and(
    eq(clients.clubId, clubId),
    q.showDeleted ? undefined : ne(clients.status, ClientStatus.Deleted),
    q.groupId ? eq(clients.groupId, q.groupId) : undefined,
    q.search ? searchCondition(q.search) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    selectClients(db)
      .where(where)
      .orderBy(...orderBy(q.sort, q.order))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(clients)
      .where(where),
  ]);
  return { items: rows.map((r) => presentClient(flatten(r))), total };
}

async function clientRow(db: Db | Tx, clubId: number, id: number): Promise<ClientWithGroup> {
  const [row] = await selectClients(db).where(and(eq(clients.clubId, clubId), eq(clients.id, id)));
  if (!row) throw notFound('client');
  return flatten(row);
}

/**
 * One client of the club, deleted ones included (GET /api/Client/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club
 */
export async function getClient(db: Db, clubId: number, id: number): Promise<Client> {
  return presentClient(await clientRow(db, clubId, id));
}

/** Field errors of a client's groupId, dates and date order (the merged state for a patch). */
async function clientErrors(
  tx: Tx,
  clubId: number,
  c: Partial<ClientInput>,
  changed: Partial<ClientInput>,
): Promise<FieldError[]> {
  assertValid(int32Errors(changed)); // before any query uses the numbers
  const errors = dateErrors(changed, DATE_FIELDS);
  if (changed.groupId != null) {
    const [g] = await tx
      .select({ id: groups.id })
      .from(groups)
      .where(and(eq(groups.clubId, clubId), eq(groups.id, changed.groupId), eq(groups.deleted, false)));
    if (!g) errors.push({ path: 'groupId', message: 'unknownGroup' });
  }
  if (c.subscriptionStart && c.subscriptionEnd && c.subscriptionStart > c.subscriptionEnd) {
    errors.push({ path: 'subscriptionEnd', message: 'dateRangeOrder' });
  }
  return errors;
}

/** Refuses a card serial held by another non-deleted client of the club (409 CARD_TAKEN). */
async function assertCardFree(tx: Tx, clubId: number, cardSerial: string, exceptId?: number): Promise<void> {
  if (!cardSerial) return;
  const [other] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.clubId, clubId),
        eq(clients.cardSerial, cardSerial),
        ne(clients.status, ClientStatus.Deleted),
        exceptId ? ne(clients.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (other) throw cardTaken();
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
 */
export async function createClient(db: Db, req: FastifyRequest, input: ClientInput): Promise<Client> {
  const clubId = req.auth.clubId;
  return db
    .transaction(async (tx) => {
      assertValid(await clientErrors(tx, clubId, input, input));
      await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK}::int, ${clubId}::int)`);
      if (input.status !== ClientStatus.Deleted) await assertCardFree(tx, clubId, input.cardSerial);
      const [{ next }] = await tx
        .select({ next: sql<number>`coalesce(max(${clients.number}), 0)::int + 1` })
        .from(clients)
        .where(eq(clients.clubId, clubId));
      const [row] = await tx
        .insert(clients)
        .values({ ...input, phone: input.phone ? (normalizePhone(input.phone) ?? '') : '', clubId, number: next })
        .returning({ id: clients.id });
      const created = presentClient(await clientRow(tx, clubId, row.id));
      await audit(tx, req, { action: 'create', entity: 'client', entityId: created.id, after: auditSnapshot(created) });
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
 */
export async function updateClient(db: Db, req: FastifyRequest, id: number, patch: ClientPatch): Promise<Client> {
  const clubId = req.auth.clubId;
  return db
    .transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: clients.id })
        .from(clients)
        .where(and(eq(clients.clubId, clubId), eq(clients.id, id)))
        .for('update');
      if (!locked) throw notFound('client');
      const before = presentClient(await clientRow(tx, clubId, id));
      const merged = { ...before, ...patch };
      assertValid(await clientErrors(tx, clubId, merged, patch));
      const cardMatters =
        merged.status !== ClientStatus.Deleted &&
        merged.cardSerial !== '' &&
        (patch.cardSerial !== undefined || before.status === ClientStatus.Deleted);
      if (cardMatters) {
        await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK}::int, ${clubId}::int)`);
        await assertCardFree(tx, clubId, merged.cardSerial, id);
      }
      const values = { ...patch };
      if (patch.phone !== undefined) values.phone = patch.phone ? (normalizePhone(patch.phone) ?? '') : '';
      if (Object.keys(values).length > 0) await tx.update(clients).set(values).where(eq(clients.id, id));
      const after = presentClient(await clientRow(tx, clubId, id));
      const action =
        after.status === ClientStatus.Deleted && before.status !== ClientStatus.Deleted
          ? 'delete'
          : before.status === ClientStatus.Deleted && after.status !== ClientStatus.Deleted
            ? 'restore'
            : 'update';
      await audit(tx, req, {
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
