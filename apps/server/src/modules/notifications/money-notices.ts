import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { queueNotice } from './notices.js';

/**
 * The notices of money events, called where the events happen (docs/notifications.md "Where
 * notices come from"). They read what the money code wrote and queue; they change no money row.
 */

/** Errors of a renewal that are not the member's card or bank: no "renewal failed" notice. */
const NOT_THE_MEMBERS = ['NO_PAYMENT_METHOD', 'DEALER_IDENTITY_MISSING'];

/**
 * After an automatic-renewal run (subscriptions.service `runAutoRenew`): "renewed" with the sale's
 * tax document for each success of the run, "renewal failed" with the debt's amount for each
 * declined charge. Reads the run's `auto_renew_logs` rows (club, moment of the run). `documentOf`
 * gives a renewal's document (the caller issues it: modules/documents `issueSaleDocument`; its
 * number and date are the purchase's, so issuing it now changes nothing), null when it has none
 * yet (a MASAV renewal's comes when the bank collects it): then the notice only links to `/m`.
 * @returns how many messages were queued
 */
export async function noticeRenewalRun(
  db: Db,
  clubId: number,
  at: Date,
  documentOf: (purchaseId: number) => Promise<number | null> = async () => null,
): Promise<number> {
  const rows = await queryRows<{
    client_id: number;
    success: boolean;
    error: string | null;
    amount: number;
    end_date: string | null;
    purchase_id: number | null;
  }>(
    db,
    sql`select l.client_id, l.success, l.error, l.amount, l.end_date::text as end_date, l.purchase_id
          from auto_renew_logs l
         where l.club_id = ${clubId} and l.at = ${at.toISOString()}::timestamptz
         order by l.id`,
  );
  let queued = 0;
  for (const r of rows) {
    if (!r.success && NOT_THE_MEMBERS.includes(r.error ?? '')) continue;
    const ids = await queueNotice(db, {
      clubId,
      clientId: r.client_id,
      kind: r.success ? 'renewed' : 'renewal-failed',
      values: { amount: r.amount, endDate: r.end_date },
      documentId: r.success && r.purchase_id != null ? await documentOf(Number(r.purchase_id)) : null,
    });
    queued += ids.length;
  }
  return queued;
}

/** A MASAV debit the bank returned (masav.service settle of a return file), inside its transaction. */
export async function noticeMasavRejected(
  tx: Tx,
  clubId: number,
  rejected: { clientId: number; amount: number; reason: string }[],
): Promise<void> {
  for (const r of rejected) {
    await queueNotice(tx, {
      clubId,
      clientId: r.clientId,
      kind: 'masav-rejected',
      values: { amount: r.amount, reason: r.reason },
    });
  }
}

/** A debt registered at the desk (debts.service createDebt), inside its transaction. */
export async function noticeNewDebt(tx: Tx, clubId: number, clientId: number, amount: number): Promise<void> {
  await queueNotice(tx, { clubId, clientId, kind: 'new-debt', values: { amount } });
}
