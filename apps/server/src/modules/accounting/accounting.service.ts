import { asc, eq, gte, lt } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import { HashavshevetDetails, localToInstant, parseIsoDate, type SumitSettings } from '@venue/domain';
import type { z } from 'zod';
import type { Database, Db } from '../../db/index.js';
import { clients, clubMoneySettings, purchases } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { dataKeys, encrypt } from '../../lib/crypto.js';
import { notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';
import { buildMovein, type MoveinMovement } from '../../integrations/accounting/movein.js';
import { clubLocation, getClubRow } from '../club/club.service.js';
import { clubToday } from '../../engine/purchase.service.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { runClubMoneyJobs } from '../subscriptions/subscriptions.service.js';

/**
 * Accounting export and invoicing settings (seed 000 §7 "Club"
 * UpdateHasavshevetDetails, UpdateClubSumitSettings, StartChargeClub;
 * "Reports" WriteMoveinDat). docs/money.md "Accounting export".
 */

async function moneyRow(db: Db, clubId: number) {
  const [r] = await scoped(db, clubId).list(clubMoneySettings);
  return r ?? null;
}

/** The {id} of the club routes must be the signed-in club (another club's id answers 404). */
export function ownClub(actor: Actor, id: number): void {
  if (id !== actor.clubId) throw notFound('club');
}

/**
 * The club's Hashavshevet accounts, or null when never saved. The row of
 * money settings also holds MASAV and SUMIT settings, and a row created by
 * saving one of those holds `{}` here: that is "never saved", not a value.
 */
export async function getHashavshevet(db: Db, clubId: number) {
  const r = await moneyRow(db, clubId);
  const parsed = HashavshevetDetails.safeParse(r?.hashavshevet);
  return parsed.success ? parsed.data : null;
}

export async function updateHashavshevet(db: Db, actor: Actor, id: number, body: z.infer<typeof HashavshevetDetails>) {
  ownClub(actor, id);
  const before = await getHashavshevet(db, id);
  await db
    .insert(clubMoneySettings)
    .values({ clubId: id, hashavshevet: body })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { hashavshevet: body } });
  await audit(db, actor, { action: 'update', entity: 'hashavshevet', entityId: id, before, after: body });
  return body;
}

/** SUMIT account: the API key is kept encrypted and never answered. */
export async function updateSumit(db: Db, actor: Actor, id: number, body: z.infer<typeof SumitSettings>) {
  ownClub(actor, id);
  const cur = ((await moneyRow(db, id))?.sumit ?? {}) as {
    companyId?: string;
    apiKeyEnc?: string;
    sendInvoices?: boolean;
  };
  const next = {
    companyId: body.companyId,
    sendInvoices: body.sendInvoices,
    apiKeyEnc: body.apiKey ? encrypt(await dataKeys(db), body.apiKey, `club:${id}:sumit`) : cur.apiKeyEnc,
  };
  await db
    .insert(clubMoneySettings)
    .values({ clubId: id, sumit: next })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { sumit: next } });
  const view = { companyId: next.companyId, sendInvoices: next.sendInvoices, apiKeySet: !!next.apiKeyEnc };
  await audit(db, actor, {
    action: 'update',
    entity: 'sumit',
    entityId: id,
    before: { companyId: cur.companyId, apiKeySet: !!cur.apiKeyEnc },
    after: view,
  });
  return view;
}

/**
 * MOVEIN.DAT for the purchases of [from, to] (club-local dates, inclusive):
 * per purchase, the net amount debited to the receipts account (cash, or the
 * card account when card payments are the larger part) and credited to the
 * income account, and the VAT credited to the VAT account. Purchases paid
 * only from balances (beats, temporary balance, free) carry no VAT and are
 * exported against the income account only when they have a net amount
 * received. Invoice number as the reference, client number as reference 2.
 * @throws VALIDATION_ERROR hashavshevetDetailsRequired, dateRangeOrder.
 */
export async function writeMovein(db: Db, clubId: number, from: string, to: string): Promise<Buffer> {
  const s = await getHashavshevet(db, clubId);
  if (!s) throw validationError([{ path: 'hashavshevet', message: 'hashavshevetDetailsRequired' }]);
  if (from > to) throw validationError([{ path: 'to', message: 'dateRangeOrder' }]);
  const club = await getClubRow(db, clubId);
  const tz = clubLocation(club).timeZone;
  const start = localToInstant(parseIsoDate(from), 0, tz);
  const endDay = new Date(`${to}T00:00:00Z`);
  endDay.setUTCDate(endDay.getUTCDate() + 1);
  const end = localToInstant(parseIsoDate(endDay.toISOString().slice(0, 10)), 0, tz);
  const rows = await db
    .select({ p: purchases, number: clients.number })
    .from(purchases)
    .leftJoin(clients, eq(clients.id, purchases.clientId))
    .where(scoped(db, clubId).where(purchases, gte(purchases.at, start), lt(purchases.at, end)))
    .orderBy(asc(purchases.invoiceNumber));
  const moves: MoveinMovement[] = [];
  for (const { p, number } of rows) {
    const received = p.paidCash + p.paidCredit + p.paidOther;
    if (received <= 0) continue;
    const date = clubToday(club.location, p.at);
    const debit = p.paidCredit > p.paidCash ? s.creditAccount : s.cashAccount;
    const base = {
      reference: p.invoiceNumber ?? 0,
      date,
      debitAccount: debit,
      reference2: number != null ? String(number) : '',
    };
    moves.push({
      ...base,
      details: `Invoice ${p.invoiceNumber}`,
      creditAccount: s.incomeAccount,
      amount: p.total - p.vat,
    });
    if (p.vat > 0)
      moves.push({ ...base, details: `VAT ${p.invoiceNumber}`, creditAccount: s.vatAccount, amount: p.vat });
  }
  return buildMovein(s, moves);
}

/**
 * StartChargeClub (seed 000 §7 "Club"): the automatic renewal run now
 * (`concurrency` clients at once), then the reconciliation of uncertain card
 * charges; audited as `run chargeClub` with both results.
 */
export async function chargeClub(database: Pick<Database, 'db' | 'kind'>, provider: ClearingProvider, actor: Actor) {
  const { renewal, saferPayments } = await runClubMoneyJobs(database, provider, actor.clubId, {
    userId: actor.userId,
    reconcile: true,
  });
  await audit(database.db, actor, {
    action: 'run',
    entity: 'chargeClub',
    entityId: actor.clubId,
    after: { renewal, saferPayments },
  });
  return { renewal, saferPayments };
}
