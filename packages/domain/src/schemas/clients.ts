import { z } from 'zod';
import { idParam, INT32_MAX, isoDate, money, positiveInt, text } from '../parts.js';
import { isValidIsraeliId, normalizePhone } from '../identity.js';
import { ExportQuery, ListQuery } from './common.js';
import { withoutDefaults } from './helpers.js';
import { ENTITY_TEXT, type EntityTextKey } from '../entity-text.js';

/**
 * Clients (seed 001 §3 "Client"): create and patch bodies, the client as
 * the API presents it, the list query and sorts, history, parents and
 * children, enrolment codes, the export query, spreadsheet import and bulk
 * actions.
 */

/** A query-string flag: `true`/`false` (also 1/0, yes/no, on/off); `z.coerce.boolean` would read "false" as true. */
const queryFlag = z.union([z.boolean(), z.stringbool()]);

const personalId = z
  .string()
  .trim()
  .refine((v) => v === '' || isValidIsraeliId(v), { message: 'invalidPersonalId' });
const phone = z
  .string()
  .trim()
  .refine((v) => v === '' || normalizePhone(v) != null, { message: 'invalidPhone' });

/**
 * The client's plain contact fields (seed 001 §3 "Client"), described once:
 * each is text of at most `max` characters kept as typed (trimmed), or a
 * phone number (`kind: 'phone'`: the project's one phone rule, stored in
 * E.164 as `phone` is). Everything past the form is derived from this list:
 * `ClientInput` and `Client` take their fields from it, the import its columns
 * (IMPORT_COLUMNS, in this order after `phone`) and its cells, the server's
 * row → answer mapping (clients.service.ts `presentClient`), the client
 * list's column (hidden until chosen) and the .xlsx export's column. A key
 * must have its words in ENTITY_TEXT.client (the compiler asks for them).
 * docs/ARCHITECTURE.md "A new client field".
 */
export const CLIENT_CONTACT_FIELDS = {
  city: { kind: 'text', max: 60 },
  address: { kind: 'text', max: 120, exportWidth: 24 },
} as const satisfies Partial<
  Record<EntityTextKey<'client'>, { kind: 'text' | 'phone'; max?: number; exportWidth?: number }>
>;
export type ClientContactKey = keyof typeof CLIENT_CONTACT_FIELDS;
/** The keys of CLIENT_CONTACT_FIELDS in their order. */
export const CLIENT_CONTACT_KEYS = Object.keys(CLIENT_CONTACT_FIELDS) as ClientContactKey[];

/** What a contact field is, read without its literal type (`max` 0 for a phone). */
export function clientContactField(key: ClientContactKey): {
  kind: 'text' | 'phone';
  max: number;
  exportWidth?: number;
} {
  const f: { kind: 'text' | 'phone'; max?: number; exportWidth?: number } = CLIENT_CONTACT_FIELDS[key];
  return { kind: f.kind, max: f.max ?? 0, ...(f.exportWidth ? { exportWidth: f.exportWidth } : {}) };
}

/** Each contact field built from its description by `make` (ClientInput's rule, Client's type). */
function contactShape<T extends z.ZodType>(make: (key: ClientContactKey) => T): Record<ClientContactKey, T> {
  return Object.fromEntries(CLIENT_CONTACT_KEYS.map((k) => [k, make(k)])) as Record<ClientContactKey, T>;
}

/** POST /api/Client: the editable fields of a client (seed 001 §3 "Client"). */
export const ClientInput = z.strictObject({
  firstName: text(60).trim().min(1, { message: 'required' }),
  lastName: text(60).trim().default(''),
  personalId: personalId.default(''),
  phone: phone.default(''),
  ...contactShape((k): z.ZodDefault<z.ZodString> => {
    const f = clientContactField(k);
    return (f.kind === 'phone' ? phone : text(f.max).trim()).default('');
  }),
  groupId: idParam.nullable().default(null),
  clientType: z.number().int().min(1).max(3).default(1),
  cardSerial: z
    .string()
    .trim()
    .max(40)
    .regex(/^[0-9A-Za-z]*$/, { message: 'invalidCardSerial' })
    .default(''),
  subscriptionStart: isoDate.nullable().default(null),
  subscriptionEnd: isoDate.nullable().default(null),
  licenseExpiry: isoDate.nullable().default(null),
  status: z.number().int().min(1).max(3).default(1),
  messageToClient: text(200).default(''),
  /** Card technology (CARD_TYPES), 0 = unknown. */
  cardType: z.number().int().min(0).max(4).default(0),
  /** Price for this client instead of the schedule's, minor units; null = none (seed 001 §3 "special price"). */
  specialPrice: money.min(0).max(100_000_000).nullable().default(null),
  /** The parent client whose subscription or money a child uses (seed 001 §3 "children"). */
  parentId: idParam.nullable().default(null),
  /** The club's own code for the client (seed 001 §3 "client code"). */
  clientCode: text(40).trim().default(''),
  /** Code typed at a terminal to enrol a fingerprint, card or face; unique in the club (409 PASSWORD_TAKEN). */
  enrollPassword: z
    .string()
    .trim()
    .max(20)
    .regex(/^[0-9A-Za-z]*$/, { message: 'invalidEnrollPassword' })
    .default(''),
  allowEnrollFingerprint: z.boolean().default(true),
  allowEnrollCard: z.boolean().default(true),
  allowEnrollFace: z.boolean().default(true),
});
export type ClientInput = z.infer<typeof ClientInput>;

/** PATCH /api/Client/{id}: any subset of the editable fields; unknown fields are refused, left-out fields are kept. */
export const ClientPatch = z.strictObject(withoutDefaults(ClientInput.shape)).partial();
export type ClientPatch = z.infer<typeof ClientPatch>;

/** A client as the API presents it. Balances in minor units. */
export const Client = z.object({
  id: z.number(),
  number: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  personalId: z.string(),
  phone: z.string(),
  ...contactShape(() => z.string()),
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  clientType: z.number(),
  cardSerial: z.string(),
  subscriptionStart: z.string().nullable(),
  subscriptionEnd: z.string().nullable(),
  licenseExpiry: z.string().nullable(),
  status: z.number(),
  messageToClient: z.string(),
  balance: z.number(),
  createdAt: z.string(),
  cardType: z.number(),
  specialPrice: z.number().nullable(),
  parentId: z.number().nullable(),
  clientCode: z.string(),
  /** Whether an enrolment code is set; the code itself only through GetAllPasswords / GetClientFull. */
  hasEnrollPassword: z.boolean(),
  allowEnrollFingerprint: z.boolean(),
  allowEnrollCard: z.boolean(),
  allowEnrollFace: z.boolean(),
  /** Read-only, owned by the money and gate areas (minor units; bonusEntries and subscriptionBalance are counts). */
  tempBalance: z.number(),
  subscriptionBalance: z.number(),
  bonusEntries: z.number(),
  hasFingerprint: z.boolean(),
  hasFace: z.boolean(),
  hasPaymentMethod: z.boolean(),
  /** Open debts, minor units. */
  debtsTotal: z.number(),
  childrenCount: z.number(),
});
export type Client = z.infer<typeof Client>;

/** Sort keys of GET /api/Client ('name' = last name, then first name). */
export const CLIENT_SORTS = [
  'number',
  'name',
  'firstName',
  'lastName',
  'createdAt',
  'subscriptionEnd',
  'licenseExpiry',
  'balance',
  'cardSerial',
  'status',
] as const;

/** GET /api/Client: paging, search (name, phone, personal ID, card serial, number), sort, filters. */
export const ClientListQuery = ListQuery.extend({
  sort: z.enum(CLIENT_SORTS).default('number'),
  showDeleted: queryFlag.default(false),
  groupId: idParam.optional(),
  /** Only this status (1 active, 2 inactive, 3 deleted — implies showDeleted). */
  status: z.coerce.number().int().min(1).max(3).optional(),
  clientType: z.coerce.number().int().min(1).max(3).optional(),
  /** valid: subscription ends today or later; expired: ended before today; none: no subscription. */
  subscription: z.enum(['valid', 'expired', 'none']).optional(),
  /** Clients whose license has expired (before today) or is missing. */
  licenseExpired: queryFlag.optional(),
  /** Children of this parent client. */
  parentId: idParam.optional(),
});
export type ClientListQuery = z.infer<typeof ClientListQuery>;

/** Card type of a client's card (seed 001 §3 "card serial, card type"): the reader technology. */
export const CARD_TYPES = { Unknown: 0, Proximity: 1, Mifare: 2, Magnetic: 3, Barcode: 4 } as const;

/** GET /api/Client/GetClientHistory/{id}: one page, newest first. */
export const ClientHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(INT32_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ClientHistoryQuery = z.infer<typeof ClientHistoryQuery>;

/**
 * One event of a client's history: an entrance (status, reason, terminal),
 * a staff change (audit action, user, before/after), or a purchase (amount).
 */
export const ClientHistoryItem = z.object({
  kind: z.enum(['entrance', 'change', 'purchase']),
  id: z.string(),
  at: z.string(),
  /** entrance: status of seed 000 §4; purchase: payment status. */
  status: z.number().nullable(),
  reason: z.number().nullable(),
  terminalName: z.string().nullable(),
  /** change: audit action (create, update, delete, restore, bulk:<action>, import). */
  action: z.string().nullable(),
  userName: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /** minor units: money taken at an entrance, or the purchase total. */
  amount: z.number(),
});
export type ClientHistoryItem = z.infer<typeof ClientHistoryItem>;
export const ClientHistoryPage = z.object({ items: z.array(ClientHistoryItem), total: z.number() });

/** A parent or child in GetParents / GetClientFull: just enough to show and link. */
export const ClientLink = z.object({
  id: z.number(),
  number: z.number(),
  name: z.string(),
  status: z.number(),
  personalId: z.string(),
});
export type ClientLink = z.infer<typeof ClientLink>;

/** GET /api/GetClientFull/{id}: the client, its group, parent and children. */
export const ClientFull = z.object({
  client: Client,
  /** The enrolment code; null when the caller may not edit clients (DESIGN §10). */
  enrollPassword: z.string().nullable(),
  group: z.object({ id: z.number(), name: z.string(), color: z.string(), entranceState: z.number() }).nullable(),
  parent: ClientLink.nullable(),
  children: z.array(ClientLink),
});
export type ClientFull = z.infer<typeof ClientFull>;

/** GET /api/Client/GetAllPasswords: the club's enrolment codes (DESIGN §10). */
export const ClientPassword = z.object({
  clientId: z.number(),
  number: z.number(),
  name: z.string(),
  enrollPassword: z.string(),
});
export type ClientPassword = z.infer<typeof ClientPassword>;
export const ClientPasswords = z.array(ClientPassword);

/** GET /api/Client/Export: the list query without paging (the current filters and sort), and the language. */
export const ClientExportQuery = ClientListQuery.omit({ page: true, pageSize: true }).extend(ExportQuery.shape);
export type ClientExportQuery = z.infer<typeof ClientExportQuery>;

// ---------------------------------------------------------------- import

/** Most rows one import file may hold. */
export const IMPORT_MAX_ROWS = 20_000;
/** Largest import upload, bytes. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Columns of the import file (POST /api/Client/ImportClients), in the sample
 * file's order. Each has a Hebrew and an English header, the words of the
 * client list and its export (entity-text.ts); either is accepted, and so are
 * `aliases` (the headers of sample files given out before, which clubs still
 * hold), case and surrounding spaces ignored. Dates are YYYY-MM-DD,
 * DD/MM/YYYY or spreadsheet dates; the group is given by name.
 */
const importColumn = <K extends EntityTextKey<'client'>>(
  key: K,
  required: boolean,
  aliases: readonly string[] = [],
) => ({
  key,
  he: ENTITY_TEXT.client[key][0],
  en: ENTITY_TEXT.client[key][1],
  required,
  aliases,
});
export const IMPORT_COLUMNS = [
  importColumn('firstName', true),
  importColumn('lastName', false),
  importColumn('personalId', false, ['Personal ID']),
  importColumn('phone', false),
  ...CLIENT_CONTACT_KEYS.map((k) => importColumn(k, false)),
  importColumn('group', false),
  importColumn('cardSerial', false, ['Card serial']),
  importColumn('subscriptionStart', false),
  importColumn('subscriptionEnd', false, ['סוף מנוי']),
  importColumn('licenseExpiry', false),
  importColumn('messageToClient', false),
] as const;
export type ImportColumnKey = (typeof IMPORT_COLUMNS)[number]['key'];

/** Query of POST /api/Client/ImportClients: `preview=true` validates and writes nothing. */
export const ImportClientsQuery = z.object({
  preview: z.union([z.boolean(), z.stringbool()]).default(false),
});

/** A row-level error: 1-based spreadsheet row (the header is row 1), column key, i18n key under `validation.`. */
export const ImportRowError = z.object({ row: z.number(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof ImportRowError>;

/** Answer of ImportClients: row count, errors, and (after a commit) how many clients were created. */
export const ImportResult = z.object({
  preview: z.boolean(),
  rows: z.number(),
  created: z.number(),
  errors: z.array(ImportRowError),
  /** The first 50 parsed rows, as they would be written (preview). */
  sample: z.array(z.record(z.string(), z.unknown())),
});
export type ImportResult = z.infer<typeof ImportResult>;

// ---------------------------------------------------------------- bulk actions

/**
 * Actions of the clients multi-operation screen (POST /api/Client/updateBulkClients).
 * newValue per action: changeGroup → group id; extendSubscription → days (1–3650);
 * setSubscriptionEnd / setLicenseExpiry → YYYY-MM-DD; setStatus → 1 or 2;
 * delete / restore → none. `addBeats` (money) is refused with 422
 * BULK_ACTION_NOT_SUPPORTED: balances change only through the money ledger.
 */
export const BULK_ACTIONS = [
  'changeGroup',
  'extendSubscription',
  'setSubscriptionEnd',
  'setStatus',
  'setLicenseExpiry',
  'delete',
  'restore',
  'addBeats',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BulkClientsRequest = z.strictObject({
  rows: z.array(positiveInt).min(1, { message: 'chooseClients' }).max(10_000),
  action: z.enum(BULK_ACTIONS),
  newValue: z.union([z.number().int().min(-INT32_MAX).max(INT32_MAX), text(200), z.null()]).optional(),
});
export type BulkClientsRequest = z.infer<typeof BulkClientsRequest>;
export const BulkClientsResult = z.object({ updated: z.number() });
