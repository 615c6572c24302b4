import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  isValidIsraeliId,
  normalizePhone,
  type ImportColumnKey,
  type ImportResult,
  type ImportRowError,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, clients, groups } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { isRealDate } from '../../lib/validation.js';
import { asText, isZip } from '../../lib/xlsx.js';

/** Advisory-lock class of client numbers of one club (the same as clients.service). */
const CLIENT_LOCK = 0x436c6e74;

type Cell = string | number | boolean | Date | null;
type Raw = Partial<Record<ImportColumnKey, Cell>>;

/** A parsed, valid import row as it will be written. */
interface ImportRow {
  firstName: string;
  lastName: string;
  personalId: string;
  phone: string;
  city: string;
  address: string;
  groupId: number | null;
  groupName: string;
  cardSerial: string;
  subscriptionStart: string | null;
  subscriptionEnd: string | null;
  licenseExpiry: string | null;
  messageToClient: string;
}

/** The sheet's cell value as a plain value (rich text, hyperlinks and formulas unwrapped). */
function plain(v: ExcelJS.CellValue): Cell {
  if (v == null) return null;
  if (v instanceof Date || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return plain(v.result as ExcelJS.CellValue);
  }
  return String(v);
}

/** Header text → column key, Hebrew or English, case and spaces ignored. */
const HEADER_KEYS = new Map<string, ImportColumnKey>(
  IMPORT_COLUMNS.flatMap((c) => [
    [norm(c.he), c.key],
    [norm(c.en), c.key],
    [norm(c.key), c.key],
  ]),
);
function norm(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Reads the first sheet of an .xlsx or a CSV (comma, semicolon or tab) into
 * raw rows keyed by column. The kind is decided by content (DESIGN §10).
 * @throws AppError UNSUPPORTED_FILE_TYPE (415) for anything else or an unreadable workbook
 */
export async function readSheet(buf: Buffer): Promise<{ headerKeys: (ImportColumnKey | null)[]; rows: Raw[] }> {
  const wb = new ExcelJS.Workbook();
  let ws: ExcelJS.Worksheet | undefined;
  try {
    if (isZip(buf)) {
      await wb.xlsx.load(buf as unknown as ArrayBuffer);
      ws = wb.worksheets[0];
    } else {
      const text = asText(buf);
      if (text == null) throw new Error('not text');
      const firstLine = text.split(/\r?\n/, 1)[0];
      const delimiter = [',', ';', '\t'].reduce((best, d) =>
        firstLine.split(d).length > firstLine.split(best).length ? d : best,
      );
      ws = await wb.csv.read(Readable.from([text]), { map: (d: string) => d, parserOptions: { delimiter } } as never);
    }
  } catch {
    throw new AppError('UNSUPPORTED_FILE_TYPE', 'Choose an .xlsx or .csv file');
  }
  if (!ws) throw new AppError('UNSUPPORTED_FILE_TYPE', 'The workbook has no sheet');
  const headerKeys: (ImportColumnKey | null)[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    const v = plain(cell.value);
    headerKeys[col] = typeof v === 'string' ? (HEADER_KEYS.get(norm(v)) ?? null) : null;
  });
  const rows: Raw[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const raw: Raw = {};
    let any = false;
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const key = headerKeys[col];
      if (!key) return;
      const v = plain(cell.value);
      if (v !== null && v !== '') any = true;
      raw[key] = v;
    });
    // Trailing blank rows end the data; a blank row in the middle is kept as an error.
    rows.push(any ? raw : {});
  }
  while (rows.length > 0 && Object.keys(rows[rows.length - 1]).length === 0) rows.pop();
  return { headerKeys, rows };
}

function text(v: Cell | undefined): string {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).trim();
}

/** A date cell: a spreadsheet date, YYYY-MM-DD, or D/M/YYYY (also with dots or dashes). */
function dateOf(v: Cell | undefined): string | null | 'invalid' {
  if (v == null || v === '') return null;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return 'invalid';
    return v.toISOString().slice(0, 10);
  }
  const s = String(v).trim();
  let iso: string | null = null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m) iso = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) iso = `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return iso && isRealDate(iso) ? iso : 'invalid';
}

/**
 * Validates every row (seed 001 §5 and issue 5 item 2): first name required;
 * personal ID check digit; phone; dates and their order; group by name among
 * the club's groups; card serial unique within the file and among the club's
 * non-deleted clients. Row numbers are the spreadsheet's (header = 1).
 */
export async function validateImport(
  db: Db,
  clubId: number,
  sheet: { headerKeys: (ImportColumnKey | null)[]; rows: Raw[] },
): Promise<{ rows: ImportRow[]; errors: ImportRowError[] }> {
  const errors: ImportRowError[] = [];
  if (!sheet.headerKeys.includes('firstName')) {
    errors.push({ row: 1, field: 'firstName', message: 'missingColumn' });
    return { rows: [], errors };
  }
  if (sheet.rows.length === 0) return { rows: [], errors: [{ row: 2, field: '', message: 'emptyFile' }] };
  if (sheet.rows.length > IMPORT_MAX_ROWS) {
    return { rows: [], errors: [{ row: IMPORT_MAX_ROWS + 2, field: '', message: 'tooManyRows' }] };
  }
  const groupRows = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(scoped(db, clubId).live(groups));
  const groupByName = new Map(groupRows.map((g) => [norm(g.name), g]));
  const cards = [...new Set(sheet.rows.map((r) => text(r.cardSerial)).filter((c) => c !== ''))];
  const taken = new Set<string>();
  for (let i = 0; i < cards.length; i += 5000) {
    const found = await db
      .select({ card: clients.cardSerial })
      .from(clients)
      .where(scoped(db, clubId).live(clients, inArray(clients.cardSerial, cards.slice(i, i + 5000))));
    for (const f of found) taken.add(f.card);
  }
  const seenCards = new Map<string, number>();
  const rows: ImportRow[] = [];
  sheet.rows.forEach((raw, i) => {
    const row = i + 2;
    const err = (field: string, message: string) => errors.push({ row, field, message });
    const firstName = text(raw.firstName);
    if (!firstName) err('firstName', 'required');
    if (firstName.length > 60) err('firstName', 'tooLong');
    const lastName = text(raw.lastName);
    if (lastName.length > 60) err('lastName', 'tooLong');
    const personalId = text(raw.personalId);
    if (personalId && !isValidIsraeliId(personalId)) err('personalId', 'invalidPersonalId');
    const phoneText = text(raw.phone);
    const phone = phoneText
      ? normalizePhone(phoneText.length === 9 && /^[1-9]/.test(phoneText) ? `0${phoneText}` : phoneText)
      : '';
    if (phone == null) err('phone', 'invalidPhone');
    const city = text(raw.city);
    const address = text(raw.address);
    if (city.length > 60) err('city', 'tooLong');
    if (address.length > 120) err('address', 'tooLong');
    const groupName = text(raw.group);
    const group = groupName ? groupByName.get(norm(groupName)) : undefined;
    if (groupName && !group) err('group', 'unknownGroup');
    const cardSerial = text(raw.cardSerial);
    if (cardSerial && !/^[0-9A-Za-z]{1,40}$/.test(cardSerial)) err('cardSerial', 'invalidCardSerial');
    else if (cardSerial && seenCards.has(cardSerial)) err('cardSerial', 'cardTakenInFile');
    else if (cardSerial && taken.has(cardSerial)) err('cardSerial', 'cardTaken');
    if (cardSerial && !seenCards.has(cardSerial)) seenCards.set(cardSerial, row);
    const dates = {
      subscriptionStart: dateOf(raw.subscriptionStart),
      subscriptionEnd: dateOf(raw.subscriptionEnd),
      licenseExpiry: dateOf(raw.licenseExpiry),
    };
    for (const [k, v] of Object.entries(dates)) if (v === 'invalid') err(k, 'invalidDate');
    const [s, e] = [dates.subscriptionStart, dates.subscriptionEnd];
    if (s && e && s !== 'invalid' && e !== 'invalid' && s > e) err('subscriptionEnd', 'dateRangeOrder');
    const messageToClient = text(raw.messageToClient);
    if (messageToClient.length > 200) err('messageToClient', 'tooLong');
    rows.push({
      firstName,
      lastName,
      personalId,
      phone: phone ?? '',
      city,
      address,
      groupId: group?.id ?? null,
      groupName: group?.name ?? '',
      cardSerial,
      subscriptionStart: dates.subscriptionStart === 'invalid' ? null : dates.subscriptionStart,
      subscriptionEnd: dates.subscriptionEnd === 'invalid' ? null : dates.subscriptionEnd,
      licenseExpiry: dates.licenseExpiry === 'invalid' ? null : dates.licenseExpiry,
      messageToClient,
    });
  });
  return { rows, errors };
}

/**
 * POST /api/Client/ImportClients: reads and validates an uploaded file;
 * in preview writes nothing; otherwise creates every row in one transaction
 * (all or nothing), numbered after the club's highest number, with an audit
 * row `import` per client.
 * @throws AppError IMPORT_HAS_ERRORS (422, details = row errors) on commit when any row is invalid
 * @throws AppError UNSUPPORTED_FILE_TYPE (415) when the content is neither .xlsx nor CSV
 */
export async function importClients(db: Db, actor: Actor, file: Buffer, preview: boolean): Promise<ImportResult> {
  const clubId = actor.clubId;
  const sheet = await readSheet(file);
  const { rows, errors } = await validateImport(db, clubId, sheet);
  const sample = rows.slice(0, 50).map((r) => ({ ...r }));
  if (preview) return { preview: true, rows: sheet.rows.length, created: 0, errors, sample };
  if (errors.length > 0) throw new AppError('IMPORT_HAS_ERRORS', 'The file has row errors', errors);
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLIENT_LOCK}::int, ${clubId}::int)`);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${clients.number}), 0)::int + 1` })
      .from(clients)
      .where(scoped(tx, clubId).where(clients));
    let n = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const inserted = await tx
        .insert(clients)
        .values(chunk.map(({ groupName: _g, ...r }, j) => ({ ...r, clubId, number: next + i + j })))
        .returning({ id: clients.id, number: clients.number });
      await tx.insert(auditLog).values(
        inserted.map((c, j) => ({
          clubId,
          userId: actor.userId,
          action: 'import',
          entity: 'client',
          entityId: String(c.id),
          after: {
            ...chunk[j],
            number: c.number,
            cardSerial: chunk[j].cardSerial ? `…${chunk[j].cardSerial.slice(-4)}` : '',
          },
          ip: actor.ip,
        })),
      );
      n += inserted.length;
    }
    return n;
  });
  return { preview: false, rows: sheet.rows.length, created, errors: [], sample };
}

/** The sample file (GET /api/Client/ImportSample): Hebrew headers and two example rows. */
export async function importSample(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('לקוחות', { views: [{ rightToLeft: true }] });
  ws.columns = IMPORT_COLUMNS.map((c) => ({ header: c.he, key: c.key, width: 18 }));
  ws.getRow(1).font = { bold: true };
  ws.addRow({
    firstName: 'שרה',
    lastName: 'לוי',
    personalId: '000000018',
    phone: '050-1234567',
    city: 'ירושלים',
    address: 'יפו 1',
    group: '',
    cardSerial: '100200',
    subscriptionStart: '2026-01-01',
    subscriptionEnd: '2026-12-31',
    licenseExpiry: '2026-12-31',
    messageToClient: '',
  });
  ws.addRow({
    firstName: 'Rachel',
    lastName: 'Cohen',
    personalId: '',
    phone: '+972 52-765-4321',
    city: 'Bnei Brak',
    cardSerial: '',
    subscriptionStart: '01/02/2026',
    subscriptionEnd: '31/01/2027',
  });
  for (const col of ['personalId', 'phone', 'cardSerial']) ws.getColumn(col).numFmt = '@';
  return Buffer.from(await wb.xlsx.writeBuffer());
}
