import type { FastifyReply } from 'fastify';
import { entityText, yesNoText, type EntityTextKey } from '@venue/domain';
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
  const h = (key: EntityTextKey<'product'>) => entityText('product', key, lang);
  return sendXlsx(
    reply,
    {
      filename: 'products.xlsx',
      sheet: entityText('sheet', 'products', lang),
      rtl: he,
      columns: [
        { header: h('name'), value: (p) => p.name },
        { header: h('displayName'), value: (p) => p.displayName },
        { header: h('description'), width: 30, value: (p) => p.description },
        { header: h('type'), value: (p) => TYPE[lang][p.type as 1 | 2 | 3] ?? String(p.type) },
        { header: h('price'), value: (p) => p.price / 100 },
        { header: h('maxQuantity'), value: (p) => p.maxQuantity },
        { header: h('active'), value: (p) => yesNoText(p.active, lang) },
      ],
    },
    once(items),
  );
}
