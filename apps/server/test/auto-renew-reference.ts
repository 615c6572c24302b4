import { sql } from 'drizzle-orm';
import { ClientStatus, isRenewalDue, PurchaseItemType, renewalQuote } from '@venue/domain';
import type { Db } from '../src/db/index.js';
import { queryRows } from '../src/db/query.js';
import type { ClearingProvider } from '../src/integrations/clearing/provider.js';
import {
  autoRenewSettings,
  monthlyOf,
  renewOne,
  type RunResult,
} from '../src/modules/subscriptions/subscriptions.service.js';
import { logWithoutMethod, renewalRun, shiftDays } from '../src/modules/subscriptions/auto-renew.batch.js';

/**
 * The per-client automatic renewal the set-based `runAutoRenew` replaced
 * (issue 18): one `createPurchase` per due client (about 17 round trips each),
 * `concurrency` clients at a time. Kept only as the reference the tests
 * compare the set-based run with, on identical data, and as the "before" of
 * bench/renewal.bench.mjs. Not used by the server.
 */
export async function runAutoRenewPerClient(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  opts: { at?: Date; userId?: number | null; concurrency?: number } = {},
): Promise<RunResult> {
  const at = opts.at ?? new Date();
  const rule = await autoRenewSettings(db, clubId);
  const run = await renewalRun(db, clubId, rule, at, opts.userId ?? null);
  const { today, settings } = run;
  const from = shiftDays(today, -settings.autoRenewDaysAfter);
  const to = shiftDays(today, settings.autoRenewDaysBefore);
  const list = await queryRows<{ id: number; end: string | Date; end_type: number; kind: string; last: unknown }>(
    db,
    sql`
    select c.id, c.subscription_end::text as end, coalesce(g.subscription_end_type, 4) as end_type, pm.kind,
           (select json_build_object('unitPrice', pi.unit_price, 'details', pi.details)
              from purchase_items pi join purchases p on p.id = pi.purchase_id
             where p.club_id = ${clubId} and p.client_id = c.id and pi.item_type = ${PurchaseItemType.NewSubscription}
             order by p.at desc, p.id desc limit 1) as last
      from clients c
      join payment_methods pm on pm.client_id = c.id and pm.deleted = false and pm.club_id = ${clubId}
      left join groups g on g.id = c.group_id
     where c.club_id = ${clubId} and c.status = ${ClientStatus.Active}
       and c.subscription_end between ${from}::date and ${to}::date
       and not exists (select 1 from auto_renew_logs l
                        where l.club_id = ${clubId} and l.client_id = c.id and l.for_end = c.subscription_end)
     order by c.id`,
  );
  const out: RunResult = {
    considered: list.length,
    renewed: 0,
    failed: 0,
    skipped: 0,
    noPaymentMethod: await logWithoutMethod(db, run),
  };
  let next = 0;
  const renewRow = async (r: (typeof list)[number]) => {
    const end = String(r.end).slice(0, 10);
    const last = (typeof r.last === 'string' ? JSON.parse(r.last) : r.last) as {
      unitPrice: number;
      details: unknown;
    } | null;
    const monthly = last ? monthlyOf(last) : null;
    if (monthly == null || !isRenewalDue(today, end, settings.autoRenewDaysBefore, settings.autoRenewDaysAfter)) {
      out.skipped++;
      return;
    }
    const quote = renewalQuote(today, end, monthly, Number(r.end_type), rule, settings.autoRenewDaysBefore);
    const ok = await renewOne(db, provider, {
      clubId,
      clientId: r.id,
      end,
      quote,
      monthly,
      kind: r.kind,
      at,
      userId: opts.userId,
    });
    if (ok) out.renewed++;
    else out.failed++;
  };
  const worker = async () => {
    while (next < list.length) await renewRow(list[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 1, list.length) }, worker));
  return out;
}
