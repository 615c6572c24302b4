import type { FastifyReply } from 'fastify';
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
  const h = (a: string, b: string) => (he ? a : b);
  const yes = (v: boolean) => (v ? h('כן', 'Yes') : h('לא', 'No'));
  return sendXlsx(
    reply,
    {
      filename: 'groups.xlsx',
      sheet: h('קבוצות', 'Groups'),
      rtl: he,
      columns: [
        { header: h('שם', 'Name'), value: (g) => g.name },
        { header: h('לקוחות', 'Clients'), value: (g) => g.clientCount },
        { header: h('מצב כניסה', 'Entrance state'), value: (g) => g.entranceState },
        { header: h('כניסה מותרת', 'Allow entrance'), value: (g) => yes(g.allowEntrance) },
        { header: h('תשלום מותר', 'Allow payment'), value: (g) => yes(g.allowPayment) },
        { header: h('רכישות מותרות', 'Allow purchases'), value: (g) => yes(g.allowPurchases) },
        { header: h('בונוס', 'Bonus'), value: (g) => g.bonus / 100 },
        { header: h('טעינה מינימלית', 'Min charge'), value: (g) => g.minChargeAmount / 100 },
        { header: h('טעינה מקסימלית', 'Max charge'), value: (g) => g.maxChargeAmount / 100 },
        { header: h('כניסות ביום', 'Entries per day'), value: (g) => g.maxEntriesPerDay },
        { header: h('עדיפות', 'Priority'), value: (g) => g.priority },
        { header: h('שורות לוח זמנים', 'Schedule rows'), value: (g) => g.schedule.length },
      ],
    },
    once(items),
  );
}
