import { eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import { ClientStatus, UNLIMITED_END_YEAR, type BulkClientsRequest } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { auditLog, clients, groups } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { isRealDate, pgError, validationError } from '../../lib/validation.js';
import { clubToday } from './clients.service.js';

type ClientRow = typeof clients.$inferSelect;

/** The fields each bulk action changes: what its audit rows keep before and after. */
const AUDITED: Record<Exclude<BulkClientsRequest['action'], 'addBeats'>, (keyof ClientRow)[]> = {
  changeGroup: ['groupId'],
  extendSubscription: ['subscriptionStart', 'subscriptionEnd'],
  setSubscriptionEnd: ['subscriptionEnd'],
  setStatus: ['status'],
  setLicenseExpiry: ['licenseExpiry'],
  delete: ['status'],
  restore: ['status'],
};

const badValue = (message: string) => validationError([{ path: 'newValue', message }]);

function dateValue(v: unknown): string {
  if (typeof v !== 'string' || !isRealDate(v)) throw badValue('invalidDate');
  return v;
}

/**
 * The clients multi-operation (POST /api/Client/updateBulkClients; seed 000 §7,
 * seed 001 §2 "multi-operation on clients"): one action on many clients of the
 * caller's club, in one transaction, with one audit row per changed client
 * (action `bulk:<action>`, before and after of the changed fields).
 *
 * Actions and `newValue`: changeGroup (group id or null), extendSubscription
 * (days 1–3650, from the current end or from today when the subscription has
 * ended or never started; unlimited subscriptions, year 2125, stay as they
 * are), setSubscriptionEnd / setLicenseExpiry (YYYY-MM-DD), setStatus (1 or 2),
 * delete (status 3), restore (status 1).
 * @returns how many clients changed
 * @throws AppError BULK_ACTION_NOT_SUPPORTED (422) for addBeats: balances change only through the money ledger
 * @throws AppError VALIDATION_ERROR (400) for a newValue that does not fit the action, or a group not of this club
 * @throws AppError NOT_FOUND (404) when any id is not a client of this club (nothing changes)
 * @throws AppError CARD_TAKEN / PASSWORD_TAKEN (409) when a restore would give a card or code to two live clients
 */
export async function updateBulkClients(db: Db, actor: Actor, body: BulkClientsRequest): Promise<{ updated: number }> {
  const clubId = actor.clubId;
  if (body.action === 'addBeats') {
    throw new AppError('BULK_ACTION_NOT_SUPPORTED', 'Beats are money: add them through the client balance calls');
  }
  const action = body.action;
  const ids = [...new Set(body.rows)];
  if (ids.some((i) => i > 2_147_483_647)) throw notFound('client');
  return db
    .transaction(async (tx) => {
      const s = scoped(tx, clubId);
      const before = await tx
        .select()
        .from(clients)
        .where(s.where(clients, inArray(clients.id, ids)))
        .for('update');
      if (before.length !== ids.length) throw notFound('client');
      const set = await valuesFor(tx, clubId, action, body.newValue);
      if (
        action === 'setSubscriptionEnd' &&
        before.some((b) => b.subscriptionStart && b.subscriptionStart > String(body.newValue))
      ) {
        throw badValue('dateRangeOrder');
      }
      const where = s.where(
        clients,
        inArray(clients.id, ids),
        action === 'extendSubscription'
          ? sql`(${clients.subscriptionEnd} is null or ${clients.subscriptionEnd} < ${`${UNLIMITED_END_YEAR}-01-01`})`
          : undefined,
      );
      await tx.update(clients).set(set).where(where);
      const after = await tx
        .select()
        .from(clients)
        .where(s.where(clients, inArray(clients.id, ids)));
      const byId = new Map(before.map((r) => [r.id, r]));
      const fields = AUDITED[action];
      const rows = after
        .map((a) => {
          const b = byId.get(a.id)!;
          const pick = (r: ClientRow) => Object.fromEntries(fields.map((f) => [f, r[f]]));
          const changed = fields.some((f) => b[f] !== a[f]);
          return changed
            ? {
                clubId,
                userId: actor.userId,
                action: `bulk:${action}` as const,
                entity: 'client' as const,
                entityId: String(a.id),
                before: pick(b),
                after: pick(a),
                ip: actor.ip,
              }
            : null;
        })
        .filter((r) => r != null);
      for (let i = 0; i < rows.length; i += 1000) await tx.insert(auditLog).values(rows.slice(i, i + 1000));
      return { updated: rows.length };
    })
    .catch((err: unknown) => {
      const { code, constraint } = pgError(err);
      if (code === '23505' && constraint === 'clients_club_card') {
        throw new AppError('CARD_TAKEN', 'The card is held by another client');
      }
      if (code === '23505' && constraint === 'clients_club_enroll_password') {
        throw new AppError('PASSWORD_TAKEN', 'password taken');
      }
      throw err;
    });
}

/** The column values of an action, its newValue checked. */
async function valuesFor(
  tx: Tx,
  clubId: number,
  action: Exclude<BulkClientsRequest['action'], 'addBeats'>,
  v: unknown,
): Promise<Parameters<ReturnType<Tx['update']>['set']>[0]> {
  switch (action) {
    case 'changeGroup': {
      if (v === null || v === undefined || v === '') return { groupId: null };
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > 2_147_483_647) throw badValue('unknownGroup');
      const [g] = await tx
        .select({ id: groups.id })
        .from(groups)
        .where(scoped(tx, clubId).live(groups, eq(groups.id, v)));
      if (!g) throw badValue('unknownGroup');
      return { groupId: v };
    }
    case 'extendSubscription': {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 3650) throw badValue('invalidDays');
      const today = await clubToday(tx, clubId);
      const base = sql`(case when ${clients.subscriptionEnd} is null or ${clients.subscriptionEnd} < ${today}::date
                             then ${today}::date else ${clients.subscriptionEnd} end)`;
      return {
        subscriptionEnd: sql`(${base} + ${v}::int)`,
        subscriptionStart: sql`coalesce(${clients.subscriptionStart}, ${today}::date)`,
      };
    }
    case 'setSubscriptionEnd':
      return { subscriptionEnd: dateValue(v) };
    case 'setLicenseExpiry':
      return { licenseExpiry: dateValue(v) };
    case 'setStatus':
      if (v !== ClientStatus.Active && v !== ClientStatus.Inactive) throw badValue('invalidStatus');
      return { status: v as number };
    case 'delete':
      return { status: ClientStatus.Deleted };
    case 'restore':
      return { status: ClientStatus.Active };
  }
}
