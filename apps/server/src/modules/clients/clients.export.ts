import type { FastifyReply } from 'fastify';
import {
  CLIENT_CONTACT_KEYS,
  clientContactField,
  entityText,
  formatPhone,
  type ClientExportQuery,
  type EntityTextKey,
} from '@venue/domain';
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
  const h = (key: EntityTextKey<'client'>) => entityText('client', key, lang);
  return [
    { header: h('number'), width: 10, value: (c) => c.number },
    { header: h('firstName'), value: (c) => c.firstName },
    { header: h('lastName'), value: (c) => c.lastName },
    { header: h('personalId'), value: (c) => c.personalId },
    { header: h('phone'), value: (c) => (c.phone ? formatPhone(c.phone) : '') },
    // The contact fields, from their one description (CLIENT_CONTACT_FIELDS).
    ...CLIENT_CONTACT_KEYS.map((k): XlsxColumn<ClientWithGroup> => {
      const f = clientContactField(k);
      return {
        header: h(k),
        ...(f.exportWidth ? { width: f.exportWidth } : {}),
        value: (c) => (f.kind === 'phone' ? (c[k] ? formatPhone(c[k]) : '') : c[k]),
      };
    }),
    { header: h('group'), value: (c) => c.groupName ?? '' },
    { header: h('clientType'), value: (c) => TYPE[lang][c.clientType] ?? String(c.clientType) },
    { header: h('cardSerial'), value: (c) => c.cardSerial },
    { header: h('subscriptionStart'), value: (c) => c.subscriptionStart },
    { header: h('subscriptionEnd'), value: (c) => c.subscriptionEnd },
    { header: h('licenseExpiry'), value: (c) => c.licenseExpiry },
    { header: h('balance'), value: (c) => money(c.balance) },
    { header: h('tempBalance'), value: (c) => money(c.tempBalance) },
    { header: h('specialPrice'), value: (c) => (c.specialPrice == null ? null : money(c.specialPrice)) },
    { header: h('status'), value: (c) => STATUS[lang][c.status] ?? String(c.status) },
    { header: h('clientCode'), value: (c) => c.clientCode },
    { header: h('createdAt'), value: (c) => c.createdAt.toISOString().slice(0, 10) },
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
      sheet: entityText('sheet', 'clients', lang),
      rtl: lang === 'he',
      columns: columns(lang),
    },
    batches(),
  );
}
