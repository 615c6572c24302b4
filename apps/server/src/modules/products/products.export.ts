import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/index.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
import { listProducts } from './products.service.js';

const TYPE = { he: { 1: 'בסיסי', 2: 'תוספת', 3: 'חלון קופץ' }, en: { 1: 'Basic', 2: 'Extra', 3: 'Popup' } } as const;

/**
 * Streams the club's products as products.xlsx (seed 000 §7 "Products"
 * export): headers, types and yes/no in `lang`, price in shekels (agorot / 100).
 */
export async function exportProducts(
  db: Db,
  clubId: number,
  lang: 'he' | 'en',
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { items } = await listProducts(db, clubId);
  const he = lang === 'he';
  const h = (a: string, b: string) => (he ? a : b);
  return sendXlsx(
    reply,
    {
      filename: 'products.xlsx',
      sheet: h('מוצרים', 'Products'),
      rtl: he,
      columns: [
        { header: h('שם', 'Name'), value: (p) => p.name },
        { header: h('שם לתצוגה', 'Display name'), value: (p) => p.displayName },
        { header: h('תיאור', 'Description'), width: 30, value: (p) => p.description },
        { header: h('סוג', 'Type'), value: (p) => TYPE[lang][p.type as 1 | 2 | 3] ?? String(p.type) },
        { header: h('מחיר', 'Price'), value: (p) => p.price / 100 },
        { header: h('כמות מרבית', 'Max quantity'), value: (p) => p.maxQuantity },
        { header: h('פעיל', 'Active'), value: (p) => (p.active ? h('כן', 'Yes') : h('לא', 'No')) },
      ],
    },
    once(items),
  );
}
