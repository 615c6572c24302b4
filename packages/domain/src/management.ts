import { z } from 'zod';
import { id, idParam, INT32_MAX, isoDate, money, positiveInt, text } from './parts.js';
import { ENTRANCE_STATES, HALACHIC_TIMES } from './enums.js';
import { PERMISSION_FLAGS } from './permissions.js';
import { Client, ClientListQuery, ClubSettings, ScheduleRow, ScheduleRowInput } from './schemas.js';

/**
 * The API contract of club management (docs/api-management.md):
 * clients in full, import and bulk operations, exports, data-grid states,
 * general schedules and the week preview, products, users and permissions,
 * terms of use, club settings and reference data. Money is integer minor
 * units (agorot); times of day are minutes after midnight; dates YYYY-MM-DD
 * in the club's time zone. Validation messages are i18n keys under
 * `validation.`.
 */

type WithoutDefault<T> = T extends z.ZodDefault<infer I> ? I : T;

// ---------------------------------------------------------------- clients

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

/** Language of an export's headers and labels (`?lang=`, default Hebrew). */
export const ExportQuery = z.object({ lang: z.enum(['he', 'en']).default('he') });

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
 * file's order. Each has a Hebrew and an English header; either is accepted
 * (case and surrounding spaces ignored). Dates are YYYY-MM-DD, DD/MM/YYYY or
 * spreadsheet dates; the group is given by name.
 */
export const IMPORT_COLUMNS = [
  { key: 'firstName', he: 'שם פרטי', en: 'First name', required: true },
  { key: 'lastName', he: 'שם משפחה', en: 'Last name', required: false },
  { key: 'personalId', he: 'תעודת זהות', en: 'Personal ID', required: false },
  { key: 'phone', he: 'טלפון', en: 'Phone', required: false },
  { key: 'city', he: 'עיר', en: 'City', required: false },
  { key: 'address', he: 'כתובת', en: 'Address', required: false },
  { key: 'group', he: 'קבוצה', en: 'Group', required: false },
  { key: 'cardSerial', he: 'מספר כרטיס', en: 'Card serial', required: false },
  { key: 'subscriptionStart', he: 'תחילת מנוי', en: 'Subscription start', required: false },
  { key: 'subscriptionEnd', he: 'סוף מנוי', en: 'Subscription end', required: false },
  { key: 'licenseExpiry', he: 'תוקף רישיון', en: 'License expiry', required: false },
  { key: 'messageToClient', he: 'הודעה ללקוח', en: 'Message to client', required: false },
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

// ---------------------------------------------------------------- bulk

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

// ---------------------------------------------------------------- data-grid states

/** Largest stored data-grid state record, bytes of JSON. */
export const DATA_GRID_STATES_MAX_BYTES = 64 * 1024;
/** PATCH /api/User/UpdateDataGridStates/{id}: grid key → its state (columns, widths, sort, filters). */
export const DataGridStatesBody = z
  .strictObject({
    dataGridStates: z
      .record(text(100), z.unknown())
      .refine((v) => JSON.stringify(v).length <= DATA_GRID_STATES_MAX_BYTES, { message: 'tooLarge' }),
  })
  .partial();

// ---------------------------------------------------------------- general schedules

/** POST /api/Schedule, PATCH /api/Schedule/{id}: a general schedule row (not owned by a group). */
export const GeneralScheduleInput = ScheduleRowInput;
export type GeneralScheduleInput = z.infer<typeof GeneralScheduleInput>;

/**
 * PATCH /api/Schedule/{id}: any subset of a general row's fields; the merged
 * row is validated whole (GeneralScheduleInput).
 */
export const GeneralSchedulePatch = z
  .strictObject(
    Object.fromEntries(
      Object.entries(ScheduleRowInput.shape)
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v]),
    ) as {
      [K in Exclude<keyof typeof ScheduleRowInput.shape, 'id'>]: WithoutDefault<(typeof ScheduleRowInput.shape)[K]>;
    },
  )
  .partial();
export type GeneralSchedulePatch = z.infer<typeof GeneralSchedulePatch>;

/** A schedule row with its owner (null = general) and the groups a general row is linked to. */
export const ScheduleWithLinks = ScheduleRow.extend({
  groupId: z.number().nullable(),
  links: z.array(z.object({ id: z.number(), groupId: z.number(), groupName: z.string() })),
});
export type ScheduleWithLinks = z.infer<typeof ScheduleWithLinks>;

/** POST /api/ScheduleToGroup. */
export const ScheduleToGroupInput = z.strictObject({
  scheduleId: id,
  groupId: id,
});
export const ScheduleToGroup = z.object({ id: z.number(), scheduleId: z.number(), groupId: z.number() });

/** GET /api/Group/{id}/WeekPreview?from=YYYY-MM-DD (default: today in the club's zone). */
export const WeekPreviewQuery = z.object({
  from: isoDate.optional(),
  /** Preview at this terminal (rows naming it count too); default: rows for every terminal only. */
  terminalId: idParam.optional(),
  lang: z.enum(['he', 'en']).default('he'),
});

/** One effective opening window of a day: [from, to) minutes after that day's midnight (to may exceed 1440). */
export const PreviewWindow = z.object({
  from: z.number(),
  to: z.number(),
  entranceState: z.number(),
  rowId: z.number(),
  /** 'own' = the group's row, 'general' = a linked general schedule. */
  source: z.enum(['own', 'general']),
  displayName: z.string(),
  price: z.number(),
});
export type PreviewWindow = z.infer<typeof PreviewWindow>;

export const PreviewDay = z.object({
  date: z.string(),
  /** 0 = Sunday … 6 = Saturday. */
  weekday: z.number(),
  erevChag: z.boolean(),
  holidays: z.array(z.string()),
  hebrewDate: z.string(),
  /** minutes after midnight, null when the sun does not set (polar) */
  sunset: z.number().nullable(),
  nightfall: z.number().nullable(),
  windows: z.array(PreviewWindow),
});
export type PreviewDay = z.infer<typeof PreviewDay>;
export const WeekPreview = z.object({
  groupId: z.number(),
  location: z.string(),
  defaultEntranceState: z.number(),
  days: z.array(PreviewDay),
});
export type WeekPreview = z.infer<typeof WeekPreview>;

// ---------------------------------------------------------------- products

/** Product type (seed 001 §3): Basic, Extra, Popup. */
export const ProductType = { Basic: 1, Extra: 2, Popup: 3 } as const;
export const PRODUCT_TYPES = [1, 2, 3] as const;
/** Products a club may hold when its capacities name none (seed 000 §9 "manager mikveh products limit 4"). */
export const DEFAULT_PRODUCTS_CAPACITY = 4;

export const ProductInput = z.strictObject({
  name: text(60).trim().min(1, { message: 'required' }),
  displayName: text(60).trim().default(''),
  description: text(500).trim().default(''),
  type: z.union(PRODUCT_TYPES.map((t) => z.literal(t))).default(1),
  price: money.min(0).max(100_000_000),
  maxQuantity: z.number().int().min(0).max(10_000).default(0),
  active: z.boolean().default(true),
});
export type ProductInput = z.infer<typeof ProductInput>;
export const ProductPatch = z
  .strictObject({
    name: text(60).trim().min(1, { message: 'required' }),
    displayName: text(60).trim(),
    description: text(500).trim(),
    type: z.union(PRODUCT_TYPES.map((t) => z.literal(t))),
    price: money.min(0).max(100_000_000),
    maxQuantity: z.number().int().min(0).max(10_000),
    active: z.boolean(),
  })
  .partial();
export type ProductPatch = z.infer<typeof ProductPatch>;
export const Product = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  type: z.number(),
  price: z.number(),
  maxQuantity: z.number(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type Product = z.infer<typeof Product>;
/** GET /api/Product: `showInactive` (default true) lists inactive products too. */
export const ProductListQuery = z.object({ showInactive: z.union([z.boolean(), z.stringbool()]).default(true) });

// ---------------------------------------------------------------- users

/** Password rules of staff users: at least 8 characters, with a letter and a digit. */
export const UserPassword = z
  .string()
  .min(8, { message: 'passwordTooShort' })
  .max(200)
  .refine((v) => /\p{L}/u.test(v) && /\d/.test(v), { message: 'passwordWeak' });

const permissionsShape = z
  .strictObject(
    Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean()])) as Record<
      (typeof PERMISSION_FLAGS)[number],
      z.ZodBoolean
    >,
  )
  .partial();

export const UserInput = z.strictObject({
  username: z
    .string()
    .trim()
    .min(3, { message: 'required' })
    .max(60)
    .regex(/^[\p{L}\p{N}._@-]+$/u, { message: 'invalidUserName' }),
  password: UserPassword,
  name: text(100).trim().default(''),
  language: z.enum(['he', 'en']).default('he'),
  isAdmin: z.boolean().default(false),
  role: z.number().int().min(1).max(7).default(1),
  employeePositionId: id.nullable().default(null),
  /** Flags not given are off; roleIsAdmin follows isAdmin. */
  permissions: permissionsShape.default({}),
  disabled: z.boolean().default(false),
});
export type UserInput = z.infer<typeof UserInput>;
export const UserPatch = z
  .strictObject({
    username: UserInput.shape.username,
    password: UserPassword,
    name: text(100).trim(),
    language: z.enum(['he', 'en']),
    isAdmin: z.boolean(),
    role: z.number().int().min(1).max(7),
    employeePositionId: id.nullable(),
    permissions: permissionsShape,
    disabled: z.boolean(),
  })
  .partial();
export type UserPatch = z.infer<typeof UserPatch>;

/** A staff user as the API presents it: never the password (stored flags, not the admin-implied ones). */
export const User = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  language: z.string(),
  isAdmin: z.boolean(),
  role: z.number(),
  employeePositionId: z.number().nullable(),
  permissions: z.record(z.string(), z.boolean()),
  disabled: z.boolean(),
  termsVersion: z.number(),
  termsAcceptedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;
export const UserName = z.object({ id: z.number(), username: z.string(), name: z.string() });

/** Largest signature image, characters of the data URL (about 150 kB of PNG). */
export const SIGNATURE_MAX_CHARS = 200_000;
/** POST /api/User/UpdateUserTermsVersion: accepted version and the drawn signature (PNG data URL). */
export const TermsAcceptance = z.strictObject({
  version: z.number().int().min(1),
  signature: z
    .string()
    .max(SIGNATURE_MAX_CHARS, { message: 'tooLarge' })
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, { message: 'invalidSignature' }),
});
export const TermsAccepted = z.object({ termsVersion: z.number(), termsAcceptedAt: z.string() });

// ---------------------------------------------------------------- club settings

/**
 * Settings only the service operator changes (seed 001 §3 "Some settings can
 * be changed only by contacting the manager"): club staff get 403
 * CONTACT_MANAGER and the console shows them read-only.
 */
export const OPERATOR_ONLY_SETTINGS = [
  'licancesAmount',
  'licenseYearlyPrice',
  'currency',
  'isKalaSubscriptionEnabled',
  'subscriptionTvilotKalaQty',
] as const;

const settingsShape = Object.fromEntries(
  Object.entries(ClubSettings.shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v]),
) as { [K in keyof typeof ClubSettings.shape]: WithoutDefault<(typeof ClubSettings.shape)[K]> };

/** PATCH /api/Club/{id}: any subset of the settings, the club's name, and the operator-only fields. */
export const ClubPatch = z
  .strictObject({
    ...settingsShape,
    name: text(100).trim().min(1, { message: 'required' }),
    currency: z.union([376, 840, 978, 826, 348].map((c) => z.literal(c))),
    licancesAmount: z.number().int().min(0).max(10_000_000),
  })
  .partial();
export type ClubPatch = z.infer<typeof ClubPatch>;

// ---------------------------------------------------------------- reference data

export const CitiesQuery = z.object({ country: z.enum(['Israel', 'UK', 'USA', 'Hungary', 'Belgium']) });
export type CitiesQuery = z.infer<typeof CitiesQuery>;
export const Cities = z.array(z.string());

export { ENTRANCE_STATES, HALACHIC_TIMES };
