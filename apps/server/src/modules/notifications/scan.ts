import { sql } from 'drizzle-orm';
import { addDays, isoDate, localParts, parseIsoDate, ClientStatus } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { clubLocation } from '../club/club.service.js';
import { queueNotice } from './notices.js';
import { getNotificationSettings } from './settings.js';

/**
 * The date-driven notices (docs/notifications.md "Notices"), found by a scan every hour rather than
 * at an event: a subscription ending within the club's `renewalDaysBefore` days gets "renewal
 * coming" when a stored card or MASAV authorization will renew it, else "subscription ending"; a
 * money balance that moved in the last two days and is under the club's threshold gets "low
 * balance". Each goes once: `onceInDays` skips a member who got the same kind lately.
 * Returns how many notices were queued (messages, all channels).
 */
export async function scanNotices(db: Db, now = new Date()): Promise<number> {
  const clubList = await queryRows<{ id: number; location: unknown }>(
    db,
    sql`select id, location from clubs where disabled_at is null order by id`,
  );
  let queued = 0;
  for (const club of clubList) {
    const settings = await getNotificationSettings(db, club.id);
    if (!settings.enabled) continue;
    const loc = clubLocation({ location: club.location as never });
    const today = isoDate(localParts(now, loc.timeZone));
    const horizon = isoDate(addDays(parseIsoDate(today), settings.renewalDaysBefore));
    const ending = await queryRows<{ id: number; end: string; renews: boolean }>(
      db,
      sql`select c.id, c.subscription_end::text as "end",
                 exists (select 1 from payment_methods pm where pm.club_id = c.club_id and pm.client_id = c.id
                         and pm.deleted = false) as renews
            from clients c
           where c.club_id = ${club.id} and c.status = ${ClientStatus.Active}
             and c.subscription_end >= ${today}::date and c.subscription_end <= ${horizon}::date`,
    );
    for (const c of ending) {
      const ids = await queueNotice(db, {
        clubId: club.id,
        clientId: c.id,
        kind: c.renews ? 'renewal-coming' : 'subscription-ending',
        values: { endDate: c.end, days: settings.renewalDaysBefore },
        onceInDays: settings.renewalDaysBefore + 1,
      });
      queued += ids.length;
    }
    const low = await queryRows<{ id: number; balance: number }>(
      db,
      sql`select c.id, c.balance from clients c
           where c.club_id = ${club.id} and c.status = ${ClientStatus.Active}
             and c.balance < ${settings.lowBalanceThreshold}
             and exists (select 1 from balance_ledger l where l.club_id = c.club_id and l.client_id = c.id
                         and l.kind = 'money' and l.at >= ${new Date(now.getTime() - 2 * 86_400_000)})`,
    );
    for (const c of low) {
      const ids = await queueNotice(db, {
        clubId: club.id,
        clientId: c.id,
        kind: 'low-balance',
        values: { balance: c.balance },
        onceInDays: 14,
      });
      queued += ids.length;
    }
  }
  return queued;
}
