import { inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  CLIENT_CONTACT_KEYS,
  clientContactField,
  ClientInput,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  normalizePhone,
  type ClientContactKey,
  type ImportColumnKey,
  type ImportResult,
  type ImportRowError,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, clients, groups } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { isRealDate } from '../../lib/validation.js';
import { readSpreadsheetIsolated } from '../../lib/sheet-isolated.js';

/** Advisory-lock class of client numbers of one club (the same as clients.service). */
const CLIENT_LOCK = 0x436c6e74;

type Cell = string | number | boolean | Date | null;
type Raw = Partial<Record<ImportColumnKey, Cell>>;

/** A parsed, valid import row as it will be written (the contact fields of CLIENT_CONTACT_FIELDS too). */
interface ImportRow extends Record<ClientContactKey, string> {
  firstName: string;
  lastName: string;
  personalId: string;
  phone: string;
  groupId: number | null;
  groupName: string;
  cardSerial: string;
  subscriptionStart: string | null;
  subscriptionEnd: string | null;
  licenseExpiry: string | null;
  messageToClient: string;
}

/** Header text → column key, Hebrew or English, case and spaces ignored. */
const HEADER_KEYS = new Map<string, ImportColumnKey>(
  IMPORT_COLUMNS.flatMap((c) => [
    [norm(c.he), c.key],
    [norm(c.en), c.key],
    [norm(c.key), c.key],
    ...c.aliases.map((a): [string, ImportColumnKey] => [norm(a), c.key]),
  ]),
);
function norm(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Reads the first sheet of an uploaded file — .xlsx, .xls, .ods, or CSV in
 * UTF-8 or Windows-1255 (lib/sheet-read.ts) — into raw rows keyed by column;
 * the first row holds the headers (Hebrew or English, IMPORT_COLUMNS).
 * The file is read on a worker thread with time and memory limits (lib/sheet-isolated.ts).
 * @throws AppError UNSUPPORTED_FILE_TYPE (415) naming what the file is when it is not a spreadsheet;
 *   CSV_MALFORMED (422); SHEET_TOO_LARGE (413) over a reading limit
 */
export async function readSheet(buf: Buffer): Promise<{ headerKeys: (ImportColumnKey | null)[]; rows: Raw[] }> {
  const [header = [], ...body] = (await readSpreadsheetIsolated(buf)).rows;
  const headerKeys = header.map((v) => (typeof v === 'string' ? (HEADER_KEYS.get(norm(v)) ?? null) : null));
  const rows: Raw[] = body.map((cells) => {
    const raw: Raw = {};
    let any = false;
    cells.forEach((v, col) => {
      const key = headerKeys[col];
      if (!key || v === null) return;
      if (v !== '') any = true;
      raw[key] = v;
    });
    // Trailing blank rows end the data; a blank row in the middle is kept as an error.
    return any ? raw : {};
  });
  while (rows.length > 0 && Object.keys(rows[rows.length - 1]).length === 0) rows.pop();
  return { headerKeys, rows };
}

function text(v: Cell | undefined): string {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).trim();
}

/**
 * An Israeli ID number as text with its leading zeros (DOMAIN-FACTS "Identity": nine digits, the
 * last a check digit). A spreadsheet that holds IDs as numbers drops the zeros (012345674 becomes
 * 12345674), so 5–8 digits are padded to nine — the check digit rule pads them the same way.
 * Spaces and hyphens between the digits are dropped; anything else is left for the check to refuse.
 */
export function importPersonalId(v: Cell | undefined): string {
  const s = text(v);
  const digits = s.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return s;
  return /^\d{5,8}$/.test(digits) ? digits.padStart(9, '0') : digits;
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

/** The sheet's fields in the order a row's errors are listed (the sample file's column order). */
const FIELD_ORDER: readonly ImportColumnKey[] = IMPORT_COLUMNS.map((c) => c.key);

/**
 * A phone cell as typed: a 9-digit number without its leading 0 (a
 * spreadsheet's number cell) is a local number.
 */
function phoneText(v: Cell | undefined): string {
  const s = text(v);
  return s.length === 9 && /^[1-9]/.test(s) ? `0${s}` : s;
}

/** The contact cells of a row (CLIENT_CONTACT_FIELDS): text as typed, a phone by phoneText. */
function contactCells(raw: Raw): Record<ClientContactKey, string> {
  return Object.fromEntries(
    CLIENT_CONTACT_KEYS.map((k) => [k, clientContactField(k).kind === 'phone' ? phoneText(raw[k]) : text(raw[k])]),
  ) as Record<ClientContactKey, string>;
}

/** The contact fields of a checked row as written: a phone in E.164 ('' when empty), text as it is. */
function contactValues(input: Record<ClientContactKey, string>): Record<ClientContactKey, string> {
  return Object.fromEntries(
    CLIENT_CONTACT_KEYS.map((k) => [
      k,
      clientContactField(k).kind === 'phone' && input[k] ? (normalizePhone(input[k]) ?? '') : input[k],
    ]),
  ) as Record<ClientContactKey, string>;
}

/** Error code of a ClientInput issue whose message is zod's own text rather than a code. */
const FIELD_CODE: Partial<Record<string, string>> = { cardSerial: 'invalidCardSerial' };
const isCode = (message: string) => /^[a-z][A-Za-z]+$/.test(message);

/** What the import knows before reading rows: the club's live groups by name and the cards they hold. */
interface ImportContext {
  groupByName: Map<string, { id: number; name: string }>;
  taken: Set<string>;
  seenCards: Map<string, number>;
  /** How many rows of the file carry each (normalised) ID number. */
  idCount: Map<string, number>;
}

/**
 * One sheet row checked by the rules of POST /api/Client (the ClientInput
 * schema of @venue/domain: first name required, lengths, personal ID check
 * digit, phone, card serial, dates), plus what only an import can check:
 * the group named among the club's groups, the card serial unique in the
 * file and among the club's non-deleted clients, the ID number once in the
 * file (kept as text with its leading zeros, importPersonalId), start not
 * after end.
 * Errors are `[field, code]`, one per field, in FIELD_ORDER.
 */
function checkRow(raw: Raw, row: number, ctx: ImportContext): { value: ImportRow; errors: [string, string][] } {
  const dates = {
    subscriptionStart: dateOf(raw.subscriptionStart),
    subscriptionEnd: dateOf(raw.subscriptionEnd),
    licenseExpiry: dateOf(raw.licenseExpiry),
  };
  const input = {
    firstName: text(raw.firstName),
    lastName: text(raw.lastName),
    personalId: importPersonalId(raw.personalId),
    phone: phoneText(raw.phone),
    ...contactCells(raw),
    cardSerial: text(raw.cardSerial),
    // An unreadable date goes to the schema unchanged, so that it answers invalidDate.
    subscriptionStart: dates.subscriptionStart === 'invalid' ? text(raw.subscriptionStart) : dates.subscriptionStart,
    subscriptionEnd: dates.subscriptionEnd === 'invalid' ? text(raw.subscriptionEnd) : dates.subscriptionEnd,
    licenseExpiry: dates.licenseExpiry === 'invalid' ? text(raw.licenseExpiry) : dates.licenseExpiry,
    messageToClient: text(raw.messageToClient),
  };
  const found = new Map<string, string>();
  const parsed = ClientInput.safeParse(input);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!found.has(field)) found.set(field, isCode(issue.message) ? issue.message : (FIELD_CODE[field] ?? 'invalid'));
  }
  // The same person twice in one file: every row of the ID is flagged (which one is right is not known).
  if (input.personalId && !found.has('personalId') && (ctx.idCount.get(input.personalId) ?? 0) > 1) {
    found.set('personalId', 'personalIdTwiceInFile');
  }
  const groupName = text(raw.group);
  const group = groupName ? ctx.groupByName.get(norm(groupName)) : undefined;
  if (groupName && !group) found.set('group', 'unknownGroup');
  const card = input.cardSerial;
  if (card && !found.has('cardSerial')) {
    if (ctx.seenCards.has(card)) found.set('cardSerial', 'cardTakenInFile');
    else if (ctx.taken.has(card)) found.set('cardSerial', 'cardTaken');
  }
  if (card && !ctx.seenCards.has(card)) ctx.seenCards.set(card, row);
  const valid = (d: string | null) => (d === 'invalid' ? null : d);
  const [start, end] = [valid(dates.subscriptionStart), valid(dates.subscriptionEnd)];
  const errors = FIELD_ORDER.flatMap((f): [string, string][] => (found.has(f) ? [[f, found.get(f)!]] : []));
  if (start && end && start > end && !found.has('subscriptionStart') && !found.has('subscriptionEnd')) {
    const at = errors.findIndex(([f]) => f === 'messageToClient');
    errors.splice(at < 0 ? errors.length : at, 0, ['subscriptionEnd', 'dateRangeOrder']);
  }
  const phone = input.phone ? normalizePhone(input.phone) : '';
  return {
    value: {
      firstName: input.firstName,
      lastName: input.lastName,
      personalId: input.personalId,
      phone: phone ?? '',
      ...contactValues(input),
      groupId: group?.id ?? null,
      groupName: group?.name ?? '',
      cardSerial: card,
      subscriptionStart: start,
      subscriptionEnd: end,
      licenseExpiry: valid(dates.licenseExpiry),
      messageToClient: input.messageToClient,
    },
    errors,
  };
}

/**
 * Validates every row (seed 001 §5): each row by checkRow, the rules of
 * POST /api/Client. Row numbers are the spreadsheet's (header = 1); a file
 * without a first-name column, an empty file and one of more than
 * IMPORT_MAX_ROWS rows answer one error.
 */
export async function validateImport(
  db: Db,
  clubId: number,
  sheet: { headerKeys: (ImportColumnKey | null)[]; rows: Raw[] },
): Promise<{ rows: ImportRow[]; errors: ImportRowError[] }> {
  if (!sheet.headerKeys.includes('firstName')) {
    return { rows: [], errors: [{ row: 1, field: 'firstName', message: 'missingColumn' }] };
  }
  if (sheet.rows.length === 0) return { rows: [], errors: [{ row: 2, field: '', message: 'emptyFile' }] };
  if (sheet.rows.length > IMPORT_MAX_ROWS) {
    return { rows: [], errors: [{ row: IMPORT_MAX_ROWS + 2, field: '', message: 'tooManyRows' }] };
  }
  const s = scoped(db, clubId);
  const groupRows = await db.select({ id: groups.id, name: groups.name }).from(groups).where(s.live(groups));
  const cards = [...new Set(sheet.rows.map((r) => text(r.cardSerial)).filter((c) => c !== ''))];
  const taken = new Set<string>();
  for (let i = 0; i < cards.length; i += 5000) {
    const found = await db
      .select({ card: clients.cardSerial })
      .from(clients)
      .where(s.live(clients, inArray(clients.cardSerial, cards.slice(i, i + 5000))));
    for (const f of found) taken.add(f.card);
  }
  const ctx: ImportContext = {
    groupByName: new Map(groupRows.map((g) => [norm(g.name), g])),
    taken,
    seenCards: new Map(),
    idCount: new Map(),
  };
  for (const r of sheet.rows) {
    const id = importPersonalId(r.personalId);
    if (id) ctx.idCount.set(id, (ctx.idCount.get(id) ?? 0) + 1);
  }
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  for (let i = 0; i < sheet.rows.length; i++) {
    // 20,000 rows are a few hundred ms of checks: the event loop (the gate) gets its turn every 250 rows.
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
    const { value, errors: found } = checkRow(sheet.rows[i], i + 2, ctx);
    rows.push(value);
    for (const [field, message] of found) errors.push({ row: i + 2, field, message });
  }
  return { rows, errors };
}

/**
 * POST /api/Client/ImportClients: reads and validates an uploaded file;
 * in preview writes nothing; otherwise creates every row in one transaction
 * (all or nothing), numbered after the club's highest number, with an audit
 * row `import` per client.
 * @throws AppError IMPORT_HAS_ERRORS (422, details = row errors) on commit when any row is invalid
 * @throws AppError UNSUPPORTED_FILE_TYPE (415) when the content is not a spreadsheet (.xlsx, .xls, .ods, CSV)
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
          action: 'import' as const,
          entity: 'client' as const,
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
  // Loaded when first asked for: exceljs is 1.4 s of a start on this machine (bench/restart.bench.mjs).
  const { default: ExcelJS } = await import('exceljs');
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
