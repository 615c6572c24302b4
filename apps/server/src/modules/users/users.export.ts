import type { FastifyReply } from 'fastify';
import { entityText, yesNoText, type EntityTextKey } from '@venue/domain';
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
  const h = (key: EntityTextKey<'user'>) => entityText('user', key, lang);
  return sendXlsx(
    reply,
    {
      filename: 'users.xlsx',
      sheet: entityText('sheet', 'users', lang),
      rtl: he,
      columns: [
        { header: h('username'), value: (u) => u.username },
        { header: h('name'), value: (u) => u.name },
        { header: h('language'), value: (u) => u.language },
        { header: h('isAdmin'), value: (u) => yesNoText(u.isAdmin, lang) },
        { header: h('role'), value: (u) => u.role },
        { header: h('disabled'), value: (u) => yesNoText(u.disabled, lang) },
        { header: h('createdAt'), value: (u) => u.createdAt.slice(0, 10) },
      ],
    },
    once(items),
  );
}
