import { z } from 'zod';
import { INT32_MAX, text } from '../parts.js';
import { KALA_CLUB_FROM, USA_CLUB_FROM } from '../enums.js';
import { COUNTRIES } from './club.js';

/**
 * The service operator's maintenance calls (seed 000 §7 "Club"
 * /Club/GetScriptVersionList, /Db/ExecuteSql; DESIGN §10; docs/operator.md).
 */

// ---------------------------------------------------------------- terminal software versions

/**
 * A version label of the terminal software: digits and dots with an optional
 * suffix (`38.0.0`, `38.1.0-beta.2`), 1–40 characters.
 */
export const scriptVersionLabel = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+){0,3}([-+][0-9A-Za-z.-]{1,20})?$/, { message: 'invalidVersion' });

/** An http(s) address of the version's file, up to 500 characters. */
const fileUrl = text(500)
  .trim()
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), { message: 'invalidUrl' });

/** One published version of the terminal software, as `GET /Club/GetScriptVersionList` lists it. */
export const ScriptVersion = z.object({
  id: z.number().int(),
  version: z.string(),
  notes: z.string(),
  fileUrl: z.string(),
  /** When it was published (ISO 8601). */
  publishedAt: z.string(),
});
export type ScriptVersion = z.infer<typeof ScriptVersion>;

/** The operator's new version: version label, notes (up to 2000 characters), the file's http(s) URL. */
export const ScriptVersionInput = z
  .object({
    version: scriptVersionLabel,
    notes: text(2000).trim().default(''),
    fileUrl,
  })
  .strict();
export type ScriptVersionInput = z.infer<typeof ScriptVersionInput>;

/** A change to a published version: any of its fields. */
export const ScriptVersionPatch = z
  .object({ version: scriptVersionLabel, notes: text(2000).trim(), fileUrl })
  .partial()
  .strict();
export type ScriptVersionPatch = z.infer<typeof ScriptVersionPatch>;

// ---------------------------------------------------------------- maintenance query

/** Longest statement text accepted by `POST /Db/ExecuteSql`, in characters. */
export const MAINTENANCE_SQL_MAX = 10_000;
/** Rows a maintenance query answers at most (more are cut and `truncated` is set). */
export const MAINTENANCE_ROW_LIMIT = 1000;
/** Time a maintenance query may run, in milliseconds (PostgreSQL `statement_timeout`). */
export const MAINTENANCE_TIMEOUT_MS = 5000;

/** `POST /Db/ExecuteSql` (seed 000 §7): `data` is one read-only statement, `password` the configured maintenance password. */
export const ExecuteSqlInput = z
  .object({
    data: z.string().trim().min(1, { message: 'required' }).max(MAINTENANCE_SQL_MAX, { message: 'outOfRange' }),
    password: z.string().min(1, { message: 'required' }).max(200),
  })
  .strict();
export type ExecuteSqlInput = z.infer<typeof ExecuteSqlInput>;

/** The answer: column names in order, rows as objects (at most MAINTENANCE_ROW_LIMIT), and whether rows were cut. */
export const ExecuteSqlResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().int(),
  truncated: z.boolean(),
});
export type ExecuteSqlResult = z.infer<typeof ExecuteSqlResult>;

// ---------------------------------------------------------------- clubs (issue 17 "Clubs")

/** Classes of clubs by externalClubId (seed 000 §1, §9): regular < 4000 ≤ usa < 7000 ≤ kala. */
export const CLUB_CLASSES = ['regular', 'usa', 'kala'] as const;
export type ClubClass = (typeof CLUB_CLASSES)[number];

/** The class of a club by its external id (seed 000 §1). */
export function clubClassOf(externalClubId: number): ClubClass {
  if (externalClubId >= KALA_CLUB_FROM) return 'kala';
  return externalClubId >= USA_CLUB_FROM ? 'usa' : 'regular';
}

/** `GET /Operator/Club` filter: text in the name or the external id, a class, a country. */
export const OperatorClubListQuery = z
  .object({
    search: text(100).trim().optional(),
    class: z.enum(CLUB_CLASSES).optional(),
    country: z.enum(COUNTRIES).optional(),
  })
  .strict();
export type OperatorClubListQuery = z.infer<typeof OperatorClubListQuery>;

/** A club as the operator's list shows it. */
export const OperatorClub = z.object({
  id: z.number().int(),
  externalClubId: z.number().int(),
  name: z.string(),
  class: z.enum(CLUB_CLASSES),
  country: z.enum(COUNTRIES),
  /** Licenses left in the club's pool ("licancesAmount", seed 000 §3). */
  licensesAmount: z.number().int(),
  /** Distinct clients with an approved entrance in the last 30 days (as the dashboard's GetActiveClientsCount). */
  activeClients: z.number().int(),
  terminalsOnline: z.number().int(),
  terminalsTotal: z.number().int(),
  /** Latest of the club's audit rows and its terminals' last connection (ISO 8601), or null. */
  lastActivity: z.string().nullable(),
  /** Set while the club is disabled (ISO 8601): its users cannot sign in, its terminals are refused. */
  disabledAt: z.string().nullable(),
});
export type OperatorClub = z.infer<typeof OperatorClub>;

/** `POST /Operator/Club`: a new club with its first admin (country: the class's default when absent). */
export const OperatorClubInput = z
  .object({
    externalClubId: z.number().int().min(1, { message: 'outOfRange' }).max(INT32_MAX, { message: 'outOfRange' }),
    name: text(100).trim().min(1, { message: 'required' }),
    country: z.enum(COUNTRIES).optional(),
    adminUsername: text(50).trim().min(1, { message: 'required' }).default('admin'),
  })
  .strict();
export type OperatorClubInput = z.infer<typeof OperatorClubInput>;

/** The new club and its admin's generated password, shown once and never stored in clear. */
export const OperatorClubCreated = z.object({
  club: OperatorClub,
  username: z.string(),
  password: z.string(),
});
export type OperatorClubCreated = z.infer<typeof OperatorClubCreated>;

// ---------------------------------------------------------------- licenses (issue 17 "Licenses")

/** `GET /Operator/LicenseRequest` filter: one status (seed 001 §4) or every one. */
export const OperatorLicenseRequestQuery = z
  .object({ status: z.coerce.number().int().min(0).max(5).optional() })
  .strict();
export type OperatorLicenseRequestQuery = z.infer<typeof OperatorLicenseRequestQuery>;

/** A bank-transfer license request as the operator's queue shows it (no bank account details). */
export const OperatorLicenseRequest = z.object({
  id: z.number().int(),
  clubId: z.number().int(),
  externalClubId: z.number().int(),
  clubName: z.string(),
  quantity: z.number().int(),
  /** Price of one license and the amount transferred, in minor units. */
  price: z.number().int(),
  amount: z.number().int(),
  transferDate: z.string(),
  reference: z.string(),
  bankCode: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  /** LicenseRequestStatus (seed 001 §4). */
  status: z.number().int(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type OperatorLicenseRequest = z.infer<typeof OperatorLicenseRequest>;

/**
 * The operator's answer to a pending request: ApprovedLoaded 2 (the licenses
 * load), RejectedByManager 3 (a reason is required) or CancelledByManager 5.
 */
export const LicenseRequestDecision = z
  .object({
    status: z.union([z.literal(2), z.literal(3), z.literal(5)], { message: 'required' }),
    reason: text(500).trim().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.status === 3 && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'required' });
  });
export type LicenseRequestDecision = z.infer<typeof LicenseRequestDecision>;

/** Licenses the operator loads into a club by hand: 1–100,000, with a reason. */
export const LicenseLoadInput = z
  .object({
    quantity: z.number().int().min(1, { message: 'outOfRange' }).max(100_000, { message: 'outOfRange' }),
    reason: text(500).trim().min(1, { message: 'required' }),
  })
  .strict();
export type LicenseLoadInput = z.infer<typeof LicenseLoadInput>;
