import { sql, type SQL } from 'drizzle-orm';
import type { ReportContext } from './framework.js';

/** SQL pieces shared by the report definitions (definitions.ts, entrance-definitions.ts). */

export const inList = (col: SQL, values: readonly number[]): SQL =>
  sql`${col} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

export const clientName = (alias: string): SQL =>
  sql`nullif(trim(${sql.raw(alias)}.first_name || ' ' || ${sql.raw(alias)}.last_name), '')`;

/** Common optional filters: each applies only when set and when the report lists it. */
export function filters(
  c: ReportContext,
  cols: Partial<Record<'terminalId' | 'clientId' | 'userId' | 'groupId', SQL>>,
): SQL[] {
  const out: SQL[] = [];
  if (c.q.terminalId && cols.terminalId) out.push(sql`${cols.terminalId} = ${c.q.terminalId}`);
  if (c.q.clientId && cols.clientId) out.push(sql`${cols.clientId} = ${c.q.clientId}`);
  if (c.q.userId && cols.userId) out.push(sql`${cols.userId} = ${c.q.userId}`);
  if (c.q.groupId && cols.groupId) out.push(sql`${cols.groupId} = ${c.q.groupId}`);
  return out;
}
