import type { FastifyReply } from 'fastify';
import { entityText, yesNoText, type EntityTextKey } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
import { listGroups } from './groups.service.js';

/**
 * Streams the club's groups as groups.xlsx (seed 000 §7 "Groups" export):
 * headers and yes/no in `lang` (right-to-left sheet for Hebrew), money columns
 * in shekels (agorot / 100).
 */
export async function exportGroups(
  db: Db,
  clubId: number,
  lang: 'he' | 'en',
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { items } = await listGroups(db, clubId);
  const he = lang === 'he';
  const h = (key: EntityTextKey<'group'>) => entityText('group', key, lang);
  const yes = (v: boolean) => yesNoText(v, lang);
  return sendXlsx(
    reply,
    {
      filename: 'groups.xlsx',
      sheet: entityText('sheet', 'groups', lang),
      rtl: he,
      columns: [
        { header: h('name'), value: (g) => g.name },
        { header: h('clientCount'), value: (g) => g.clientCount },
        { header: h('entranceState'), value: (g) => g.entranceState },
        { header: h('allowEntrance'), value: (g) => yes(g.allowEntrance) },
        { header: h('allowPayment'), value: (g) => yes(g.allowPayment) },
        { header: h('allowPurchases'), value: (g) => yes(g.allowPurchases) },
        { header: h('bonus'), value: (g) => g.bonus / 100 },
        { header: h('minChargeAmount'), value: (g) => g.minChargeAmount / 100 },
        { header: h('maxChargeAmount'), value: (g) => g.maxChargeAmount / 100 },
        { header: h('maxEntriesPerDay'), value: (g) => g.maxEntriesPerDay },
        { header: h('priority'), value: (g) => g.priority },
        { header: h('scheduleRows'), value: (g) => g.schedule.length },
      ],
    },
    once(items),
  );
}
