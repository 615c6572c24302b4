import { z } from 'zod';
import { count, idParam, int32, INT32_MAX, isoDate, money, positiveInt, text } from './parts.js';
import { ENTRANCE_STATES, HALACHIC_TIMES, IdentificationKind, UNLIMITED_END_YEAR } from './enums.js';
import { isValidIsraeliId, normalizePhone } from './identity.js';
import { PERMISSION_FLAGS } from './permissions.js';
import { PERIODS } from './period.js';
import { TerminalSettings } from './terminal.js';

/**
 * The API contract (STYLE point 5): request and response schemas shared by
 * the server (validation, OpenAPI) and the console (forms). Validation
 * messages are i18n keys under `validation.` in the console's catalogues.
 * Money is integer minor units (agorot); times of day are minutes after
 * midnight; dates are YYYY-MM-DD in the club's time zone.
 */

const isoDateString = isoDate;
const minutesOfDay = z.number().int().min(0).max(1440);
const id = idParam;

// ---------------------------------------------------------------- account

/** POST /api/Account (seed 000 §3 "Login"). */
export const LoginRequest = z.object({
  username: text(100).trim().min(1, { message: 'required' }),
  password: text(200).min(1, { message: 'required' }),
  externalClubId: z.coerce.number().int().positive({ message: 'required' }).max(INT32_MAX, { message: 'invalidId' }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** Login response: a bearer token and its lifetime in seconds. */
export const LoginResponse = z.object({ token: z.string(), expiresIn: z.number().int() });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const PermissionsSchema = z.object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean()])) as Record<
    (typeof PERMISSION_FLAGS)[number],
    z.ZodBoolean
  >,
);

/** GET /api/Account/GetCurrent (seed 000 §3 "Current user"): flags are effective (admin implies all). */
export const CurrentUser = PermissionsSchema.extend({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  language: z.enum(['he', 'en']),
  role: z.number(),
  level: z.number(),
  clubId: z.number().nullable(),
  externalClubId: z.number().nullable(),
  termsVersion: z.number(),
  dataGridStates: z.record(z.string(), z.unknown()),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

// ---------------------------------------------------------------- club

export const COUNTRIES = ['Israel', 'UK', 'USA', 'Hungary', 'Belgium'] as const;

/** Club settings with the defaults of seed 000 §3. */
export const ClubSettings = z.object({
  creditChargeFeeType: z.number().int().min(0).max(2).default(0),
  creditChargeFeeValue: count.default(0),
  entranceCreditFeeType: z.number().int().min(0).max(2).default(0),
  entranceCreditFeeValue: count.default(0),
  country: z.enum(COUNTRIES).default('Israel'),
  allowEnrollmentFingerprintInSelfRegister: z.boolean().default(true),
  allowEnrollmentCardInSelfRegister: z.boolean().default(true),
  allowEnrollmentFaceInSelfRegister: z.boolean().default(true),
  languages: z.array(z.enum(['he', 'en'])).default(['he', 'en']),
  mainLanguage: z.enum(['he', 'en']).default('he'),
  isQuickExitEnabled: z.boolean().default(false),
  isKalaSubscriptionEnabled: z.boolean().default(false),
  isEmployeeBiometricAuthEnabled: z.boolean().default(false),
  isEmployeeAttendanceEnabled: z.boolean().default(false),
  isEmployeeEnrollmentEnabled: z.boolean().default(false),
  isUpsellEnabled: z.boolean().default(false),
  isLimitedResetCashLevelsReportEnabled: z.boolean().default(false),
  isIncidentReportEnabled: z.boolean().default(false),
  isSaferPaymentsEnabled: z.boolean().default(true),
  isLicenseRequiredInSelfRegister: z.boolean().default(true),
  subscriptionTvilotKalaQty: count.default(14),
  /** Club load limit: at most `entrancesLimitPeople` entries in `entrancesLimitMinutes` (0 = off). */
  entrancesLimitPeople: count.default(0),
  entrancesLimitMinutes: count.default(0),
  maxCashOverpayment: count.default(0),
  minChargeAmount: count.default(0),
  maxChargeAmount: count.default(0),
  autoRenewDaysBefore: count.default(0),
  autoRenewDaysAfter: count.default(0),
  /** Quick exit (seed 001 §3): a stay of at least min and at most max minutes earns a reward; max 0 = not configured. */
  quickExitMinMinutes: count.default(0),
  quickExitMaxMinutes: count.default(0),
  /** Money (minor units) credited to the balance for a quick exit after an entrance by subscription. */
  quickExitSubscriptionReward: count.default(0),
  /** Money (minor units) returned for a quick exit after an entrance paid by money, at most what it cost. */
  quickExitTransactionReward: count.default(0),
  /** Club details (seed 001 §3 "Club settings shown in the interface"). */
  invoiceEmail: z.union([z.literal(''), z.email({ message: 'invalidEmail' })]).default(''),
  companyNumber: z
    .string()
    .trim()
    .max(20)
    .regex(/^[0-9A-Za-z-]*$/, { message: 'invalidCompanyNumber' })
    .default(''),
  addressCity: text(60).trim().default(''),
  addressStreet: text(80).trim().default(''),
  addressHouseNumber: text(10).trim().default(''),
  /** Yearly price of one client license, minor units; only the operator changes it. */
  licenseYearlyPrice: z.number().int().min(0).max(100_000_000).default(0),
  /** Self-registration: group of new clients (null = none), and whether a personal ID may be left out. */
  selfRegisterDefaultGroupId: id.nullable().default(null),
  selfRegisterNoIdRequired: z.boolean().default(false),
});
export type ClubSettings = z.infer<typeof ClubSettings>;

export const ClubLocationSchema = z.object({
  name: z.string(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  elevation: z.number().min(0),
  timeZone: z.string(),
  il: z.boolean(),
});

/** GET /api/Club/GetCurrent. */
export const Club = ClubSettings.extend({
  id: z.number(),
  externalClubId: z.number(),
  name: z.string(),
  licancesAmount: z.number(),
  currency: z.number(),
  currencySymbol: z.string(),
  location: ClubLocationSchema,
});
export type Club = z.infer<typeof Club>;

/** GET /api/Club/GetCapacities: named capacities of the club (e.g. products). */
export const Capacity = z.object({ name: z.string(), capacity: z.number().int() });
export type Capacity = z.infer<typeof Capacity>;

// ---------------------------------------------------------------- lists

/** Query of every paged list: 1-based page, page size up to 500. */
export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(INT32_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(25),
  search: text(100).trim().optional(),
  sort: text(50).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type ListQuery = z.infer<typeof ListQuery>;

export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

type WithoutDefault<T> = T extends z.ZodDefault<infer I> ? I : T;

/**
 * The shape of a create schema with its defaults taken off, for PATCH bodies:
 * a field left out of a patch must stay as stored, not be reset to its
 * create-time default (`.partial()` alone keeps the defaults in zod 4).
 */
function withoutDefaults<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: WithoutDefault<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v])) as {
    [K in keyof S]: WithoutDefault<S[K]>;
  };
}

/** A query-string flag: `true`/`false` (also 1/0, yes/no, on/off); `z.coerce.boolean` would read "false" as true. */
const queryFlag = z.union([z.boolean(), z.stringbool()]);

/** Answer of a delete: `{ok: true}`. */
export const OkResponse = z.object({ ok: z.literal(true) });

// ---------------------------------------------------------------- clients

const personalId = z
  .string()
  .trim()
  .refine((v) => v === '' || isValidIsraeliId(v), { message: 'invalidPersonalId' });
const phone = z
  .string()
  .trim()
  .refine((v) => v === '' || normalizePhone(v) != null, { message: 'invalidPhone' });

/** POST /api/Client: the editable fields of a client (seed 001 §3 "Client"). */
export const ClientInput = z.strictObject({
  firstName: text(60).trim().min(1, { message: 'required' }),
  lastName: text(60).trim().default(''),
  personalId: personalId.default(''),
  phone: phone.default(''),
  city: text(60).trim().default(''),
  address: text(120).trim().default(''),
  groupId: id.nullable().default(null),
  clientType: z.number().int().min(1).max(3).default(1),
  cardSerial: z
    .string()
    .trim()
    .max(40)
    .regex(/^[0-9A-Za-z]*$/, { message: 'invalidCardSerial' })
    .default(''),
  subscriptionStart: isoDateString.nullable().default(null),
  subscriptionEnd: isoDateString.nullable().default(null),
  licenseExpiry: isoDateString.nullable().default(null),
  status: z.number().int().min(1).max(3).default(1),
  messageToClient: text(200).default(''),
  /** Card technology (management.ts CARD_TYPES), 0 = unknown. */
  cardType: z.number().int().min(0).max(4).default(0),
  /** Price for this client instead of the schedule's, minor units; null = none (seed 001 §3 "special price"). */
  specialPrice: money.min(0).max(100_000_000).nullable().default(null),
  /** The parent client whose subscription or money a child uses (seed 001 §3 "children"). */
  parentId: id.nullable().default(null),
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
  city: z.string(),
  address: z.string(),
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

// ---------------------------------------------------------------- groups and schedules

/** One schedule row (seed 001 §3 "Schedule entry"). Times in minutes after midnight. */
export const ScheduleRowInput = z
  .strictObject({
    id: id.optional(),
    days: z.array(z.number().int().min(0).max(7)).min(1, { message: 'chooseDays' }),
    fromTime: minutesOfDay.nullable().default(null),
    toTime: minutesOfDay.nullable().default(null),
    fromHalachic: z
      .union(HALACHIC_TIMES.map((h) => z.literal(h)))
      .nullable()
      .default(null),
    fromOffset: z.number().int().min(-720).max(720).default(0),
    toHalachic: z
      .union(HALACHIC_TIMES.map((h) => z.literal(h)))
      .nullable()
      .default(null),
    toOffset: z.number().int().min(-720).max(720).default(0),
    fromDate: isoDateString.nullable().default(null),
    toDate: isoDateString.nullable().default(null),
    price: money.min(0).default(0),
    pricePerBeat: money.min(0).default(0),
    displayName: text(60).default(''),
    maxPurchaseQty: count.default(0),
    description: text(200).default(''),
    minutes: count.default(0),
    priority: int32.default(0),
    entranceState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))),
    terminalId: id.nullable().default(null),
  })
  .refine((r) => r.fromHalachic != null || r.fromTime != null, { message: 'fromRequired', path: ['fromTime'] })
  .refine((r) => r.toHalachic != null || r.toTime != null, { message: 'toRequired', path: ['toTime'] })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'dateRangeOrder',
    path: ['toDate'],
  });
export type ScheduleRowInput = z.infer<typeof ScheduleRowInput>;
export type ScheduleRow = ScheduleRowInput & { id: number; sortOrder: number };

/** A stored schedule row as the API presents it (GET /api/Schedule/GetByGroupId/{id}, Group.schedule). */
export const ScheduleRow = z.object({
  id: z.number(),
  sortOrder: z.number(),
  days: z.array(z.number()),
  fromTime: z.number().nullable(),
  toTime: z.number().nullable(),
  fromHalachic: z.number().nullable(),
  fromOffset: z.number(),
  toHalachic: z.number().nullable(),
  toOffset: z.number(),
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  price: z.number(),
  pricePerBeat: z.number(),
  displayName: z.string(),
  maxPurchaseQty: z.number(),
  description: z.string(),
  minutes: z.number(),
  priority: z.number(),
  entranceState: z.number(),
  terminalId: z.number().nullable(),
});

/** A client group (seed 001 §3 "Client group"). Rows are saved with the group, in list order. */
export const GroupInput = z.strictObject({
  name: text(60).trim().min(1, { message: 'required' }),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'invalidColor' })
    .default('#1677ff'),
  allowEntrance: z.boolean().default(true),
  allowPayment: z.boolean().default(true),
  allowPurchases: z.boolean().default(true),
  bonus: money.min(0).default(0),
  minChargeAmount: money.min(0).default(0),
  maxChargeAmount: money.min(0).default(0),
  entranceState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))).default(1),
  subscriptionEndType: z.number().int().min(1).max(4).default(4),
  daysToExtend: count.default(0),
  delayBetweenEntriesMinutes: count.default(0),
  maxEntriesPerDay: count.default(0),
  maxEntriesPerDayPerSubscriber: count.default(0),
  priority: int32.default(0),
  newDayStartHour: z.number().int().min(0).max(23).default(0),
  useHalachicTimes: z.boolean().default(false),
  schedule: z.array(ScheduleRowInput).max(200).default([]),
});
export type GroupInput = z.infer<typeof GroupInput>;
/** PATCH /api/Group/{id}: any subset; `schedule`, when present, replaces every row in the given order. */
export const GroupPatch = z.strictObject(withoutDefaults(GroupInput.shape)).partial();
export type GroupPatch = z.infer<typeof GroupPatch>;

export type Group = Omit<GroupInput, 'schedule'> & {
  id: number;
  schedule: ScheduleRow[];
  clientCount: number;
};

/** A group as the API presents it: its settings, its schedule rows in list order, and its non-deleted clients' count. */
export const Group = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  allowEntrance: z.boolean(),
  allowPayment: z.boolean(),
  allowPurchases: z.boolean(),
  bonus: z.number(),
  minChargeAmount: z.number(),
  maxChargeAmount: z.number(),
  entranceState: z.number(),
  subscriptionEndType: z.number(),
  daysToExtend: z.number(),
  delayBetweenEntriesMinutes: z.number(),
  maxEntriesPerDay: z.number(),
  maxEntriesPerDayPerSubscriber: z.number(),
  priority: z.number(),
  newDayStartHour: z.number(),
  useHalachicTimes: z.boolean(),
  schedule: z.array(ScheduleRow),
  clientCount: z.number(),
});

// ---------------------------------------------------------------- terminals

/** POST /api/Terminal: a new terminal; the answer carries its secret once. */
export const TerminalInput = z
  .strictObject({
    serial: z
      .string()
      .trim()
      .min(1, { message: 'required' })
      .max(40)
      .regex(/^[A-Za-z0-9._-]+$/, { message: 'invalidSerial' }),
    name: text(60).trim().min(1, { message: 'required' }),
    isMain: z.boolean().default(false),
    gateOpenSeconds: z.number().int().min(1).max(120).default(5),
    doorState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))).default(2),
    // Every other field of seed 001 §3 (packages/domain/src/terminal.ts); omitted = default.
    ...withoutDefaults(TerminalSettings.shape),
  })
  .partial({ ...Object.fromEntries(Object.keys(TerminalSettings.shape).map((k) => [k, true])) } as {
    [K in keyof typeof TerminalSettings.shape]: true;
  });
export type TerminalInput = z.infer<typeof TerminalInput>;
/** PATCH /api/Terminal/{id}: editable fields, and `approved` for the technician's approval. */
export const TerminalPatch = z
  .strictObject(withoutDefaults(TerminalInput.omit({ serial: true }).shape))
  .partial()
  .extend({ approved: z.boolean().optional() });
export type TerminalPatch = z.infer<typeof TerminalPatch>;

export const Terminal = z.object({
  id: z.number(),
  serial: z.string(),
  name: z.string(),
  isMain: z.boolean(),
  approved: z.boolean(),
  gateOpenSeconds: z.number(),
  doorState: z.number(),
  connected: z.boolean(),
  lastConnection: z.string().nullable(),
  /** Soft-deleted (only in the list with `deleted=true`); a deleted terminal cannot connect. */
  deleted: z.boolean(),
  ...TerminalSettings.shape,
});
export type Terminal = z.infer<typeof Terminal>;
/** POST /api/Terminal answer: the terminal and its secret, shown this once (only a hash is stored). */
export const TerminalCreated = Terminal.extend({ secret: z.string() });

// ---------------------------------------------------------------- reports

/** Filter of the report calls (seed 001 §2: day, week, month, year, range). */
export const ReportFilter = z.object({
  period: z.enum(PERIODS).default('day'),
  /** The day inside the period (default today); for 'range', from and to. */
  anchor: isoDateString.optional(),
  from: isoDateString.optional(),
  to: isoDateString.optional(),
  page: positiveInt.default(1),
  pageSize: z.number().int().min(1).max(1000).default(50),
  terminalId: id.optional(),
  groupId: id.optional(),
  clientId: id.optional(),
  status: z.array(int32).optional(),
  sort: z.enum(['at', 'status', 'client', 'terminal']).default('at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ReportFilter = z.infer<typeof ReportFilter>;

/** One row of the entrance report. */
export const EntranceRow = z.object({
  id: z.number(),
  at: z.string(),
  clientId: z.number().nullable(),
  clientNumber: z.number().nullable(),
  clientName: z.string().nullable(),
  groupName: z.string().nullable(),
  terminalId: z.number().nullable(),
  terminalName: z.string().nullable(),
  status: z.number(),
  reason: z.number(),
  identificationKind: z.string(),
  amount: z.number(),
  paymentType: z.number(),
});
export type EntranceRow = z.infer<typeof EntranceRow>;

export const EntranceReport = z.object({
  items: z.array(EntranceRow),
  total: z.number(),
  totals: z.object({
    count: z.number(),
    approved: z.number(),
    failed: z.number(),
    amount: z.number(),
    byStatus: z.record(z.string(), z.number()),
  }),
  range: z.object({ from: z.string(), to: z.string() }),
});
export type EntranceReport = z.infer<typeof EntranceReport>;

// ---------------------------------------------------------------- dashboard

/** A chart series: label key and value (counts, or minor units for money). */
export const ChartPoint = z.object({ key: z.string(), value: z.number() });
export const ChartData = z.array(ChartPoint);
export type ChartPoint = z.infer<typeof ChartPoint>;
export const DashboardCount = z.object({ value: z.number() });

// ---------------------------------------------------------------- terminal protocol

/** Identification presented at a terminal. */
export const Identification = z.object({
  kind: z.enum(IdentificationKind),
  value: text(4096).trim().min(1),
});
export type Identification = z.infer<typeof Identification>;

export { UNLIMITED_END_YEAR };
export const ID = id;
