import type { FastifyReply } from 'fastify';
import { formatPhone, type ClientExportQuery } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.js';
import { clientListRows, clientListWhere, type ClientWithGroup } from './clients.service.js';

/** Rows read per query while streaming an export. */
const BATCH = 2000;

type Lang = 'he' | 'en';
const money = (m: number) => m / 100;
const STATUS: Record<Lang, Record<number, string>> = {
  he: { 1: 'פעיל', 2: 'לא פעיל', 3: 'נמחק' },
  en: { 1: 'Active', 2: 'Inactive', 3: 'Deleted' },
};
const TYPE: Record<Lang, Record<number, string>> = {
  he: { 1: 'רגיל', 2: 'מנהל', 3: 'טכנאי' },
  en: { 1: 'Regular', 2: 'Manager', 3: 'Technician' },
};

function columns(lang: Lang): XlsxColumn<ClientWithGroup>[] {
  const h = (he: string, en: string) => (lang === 'he' ? he : en);
  return [
    { header: h('מספר', 'Number'), width: 10, value: (c) => c.number },
    { header: h('שם פרטי', 'First name'), value: (c) => c.firstName },
    { header: h('שם משפחה', 'Last name'), value: (c) => c.lastName },
    { header: h('תעודת זהות', 'Personal ID'), value: (c) => c.personalId },
    { header: h('טלפון', 'Phone'), value: (c) => (c.phone ? formatPhone(c.phone) : '') },
    { header: h('עיר', 'City'), value: (c) => c.city },
    { header: h('כתובת', 'Address'), width: 24, value: (c) => c.address },
    { header: h('קבוצה', 'Group'), value: (c) => c.groupName ?? '' },
    { header: h('סוג לקוח', 'Client type'), value: (c) => TYPE[lang][c.clientType] ?? String(c.clientType) },
    { header: h('מספר כרטיס', 'Card serial'), value: (c) => c.cardSerial },
    { header: h('תחילת מנוי', 'Subscription start'), value: (c) => c.subscriptionStart },
    { header: h('סוף מנוי', 'Subscription end'), value: (c) => c.subscriptionEnd },
    { header: h('תוקף רישיון', 'License expiry'), value: (c) => c.licenseExpiry },
    { header: h('יתרה', 'Balance'), value: (c) => money(c.balance) },
    { header: h('יתרה זמנית', 'Temporary balance'), value: (c) => money(c.tempBalance) },
    { header: h('מחיר מיוחד', 'Special price'), value: (c) => (c.specialPrice == null ? null : money(c.specialPrice)) },
    { header: h('סטטוס', 'Status'), value: (c) => STATUS[lang][c.status] ?? String(c.status) },
    { header: h('קוד לקוח', 'Client code'), value: (c) => c.clientCode },
    { header: h('נוצר', 'Created'), value: (c) => c.createdAt.toISOString().slice(0, 10) },
  ];
}

/**
 * GET /api/Client/Export: the client list with the list's filters and sort as
 * an .xlsx, streamed in batches (seed 001 §8 "No data to export" when empty).
 * Money columns in currency units (agorot / 100).
 */
export async function exportClients(
  db: Db,
  clubId: number,
  q: ClientExportQuery,
  lang: Lang,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const where = await clientListWhere(db, clubId, q);
  async function* batches(): AsyncIterable<ClientWithGroup[]> {
    for (let offset = 0; ; offset += BATCH) {
      const rows = await clientListRows(db, where, q).limit(BATCH).offset(offset);
      if (rows.length === 0) return;
      yield rows.map((r) => ({ ...r.client, groupName: r.groupName }));
      if (rows.length < BATCH) return;
    }
  }
  return sendXlsx(
    reply,
    {
      filename: 'clients.xlsx',
      sheet: lang === 'he' ? 'לקוחות' : 'Clients',
      rtl: lang === 'he',
      columns: columns(lang),
    },
    batches(),
  );
}
