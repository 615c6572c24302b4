import { sql } from 'drizzle-orm';
import type { DataAccessRow } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { clients } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';

/**
 * Who opened client `clientId`'s record (docs/privacy.md "Who looked"): the last 500 reads of her
 * data in the club's access log, newest first, with the user's name as it was then. Errors:
 * NOT_FOUND for another club's client or none.
 */
export async function accessOfClient(db: Db, clubId: number, clientId: number): Promise<DataAccessRow[]> {
  await scoped(db, clubId).one(clients, clientId, 'client');
  const rows = await queryRows<{
    at: Date | string;
    userId: number | null;
    userName: string;
    kind: DataAccessRow['kind'];
    subject: string;
    ip: string;
  }>(
    db,
    sql`select at, user_id as "userId", username as "userName", kind, subject, ip from data_access_log
      where club_id = ${clubId} and client_id = ${clientId} order by at desc, id desc limit 500`,
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}
