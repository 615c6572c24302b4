import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/index.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
import { listUsers } from './users.service.js';

/** Streams the club's users as users.xlsx (seed 000 §7 "Users" export): headers and yes/no in `lang`, creation day only. */
export async function exportUsers(
  db: Db,
  clubId: number,
  lang: 'he' | 'en',
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { items } = await listUsers(db, clubId);
  const he = lang === 'he';
  const h = (a: string, b: string) => (he ? a : b);
  return sendXlsx(
    reply,
    {
      filename: 'users.xlsx',
      sheet: h('משתמשים', 'Users'),
      rtl: he,
      columns: [
        { header: h('שם משתמש', 'User name'), value: (u) => u.username },
        { header: h('שם', 'Name'), value: (u) => u.name },
        { header: h('שפה', 'Language'), value: (u) => u.language },
        { header: h('מנהל מערכת', 'Admin'), value: (u) => (u.isAdmin ? h('כן', 'Yes') : h('לא', 'No')) },
        { header: h('תפקיד', 'Role'), value: (u) => u.role },
        { header: h('מושבת', 'Disabled'), value: (u) => (u.disabled ? h('כן', 'Yes') : h('לא', 'No')) },
        { header: h('נוצר', 'Created'), value: (u) => u.createdAt.slice(0, 10) },
      ],
    },
    once(items),
  );
}
