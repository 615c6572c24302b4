import { z } from 'zod';
import { count, idParam, text } from '../parts.js';
import { ENTRANCE_STATES, HALACHIC_TIMES } from '../enums.js';
import { WithoutDefault } from './helpers.js';
import { ClubLocationInput } from '../locations.js';

/**
 * The club: its settings with the defaults of seed 000 §3, location,
 * capacities, the settings patch (operator-only fields), and reference data
 * (countries and cities).
 */

export const COUNTRIES = ['Israel', 'UK', 'USA', 'Hungary', 'Belgium'] as const;

/** Club settings with the defaults of seed 000 §3. */
export const ClubSettings = z.object({
  creditChargeFeeType: z.number().int().min(0).max(2).default(0),
  creditChargeFeeValue: count.default(0),
  entranceCreditFeeType: z.number().int().min(0).max(2).default(0),
  entranceCreditFeeValue: count.default(0),
  country: z.enum(COUNTRIES).default('Israel'),
  /**
   * Sales tax of a USA club in basis points (825 = 8.25%; DOMAIN-FACTS: it
   * varies by state, default 0), in place of VAT; ignored in other countries.
   */
  usSalesTaxBp: z.number().int().min(0).max(2500).default(0),
  allowEnrollmentFingerprintInSelfRegister: z.boolean().default(true),
  allowEnrollmentCardInSelfRegister: z.boolean().default(true),
  allowEnrollmentFaceInSelfRegister: z.boolean().default(true),
  languages: z
    .array(z.enum(['he', 'en']))
    .max(2)
    .default(['he', 'en']),
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
  selfRegisterDefaultGroupId: idParam.nullable().default(null),
  selfRegisterNoIdRequired: z.boolean().default(false),
  /**
   * Attendance (docs/attendance.md): the local hour (0–23) at which a shift
   * still open is closed automatically, at the first such hour after its
   * entry, flagged automatic; null = never.
   */
  attendanceAutoCloseHour: z.number().int().min(0).max(23).nullable().default(4),
  /**
   * Payroll (docs/attendance.md, Hours of Work and Rest Law 1951 §§2–3, 16):
   * a 5- or 6-day work week (regular day 8.6 h or 8 h), regular hours a week
   * (42 since the 2018 extension order); overtime pays 125% for the first
   * `payrollOvertimeFirstTierMinutes` of a day and 150% beyond.
   */
  payrollWorkWeekDays: z.union([z.literal(5), z.literal(6)]).default(5),
  payrollWeeklyMinutes: z
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 60)
    .default(42 * 60),
  payrollOvertimeFirstTierMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(120),
  /**
   * Retention (issue 39, docs/privacy.md "Retention"): days an entrance is kept in detail; past them
   * the nightly job deletes it (with its quick exit and front-desk override) and only the daily
   * counts (activity_daily) remain. At least 30 days: the gate's quotas read a month back.
   */
  retentionEntranceDays: z.number().int().min(30).max(3650).default(90),
  /** Days an attendance record is kept (default 7 years, Wage Protection Law §25 / tax records). */
  retentionAttendanceDays: z.number().int().min(30).max(3650).default(2557),
  /** Days after her last entrance that the biometric templates of a client who left (inactive or deleted) are kept. */
  retentionBiometricDays: z.number().int().min(1).max(3650).default(30),
  /**
   * Visitor mode (issue 39, docs/privacy.md "Visitor mode"): entrances are decided and counted but
   * kept per person only for the decision window (the longest look-back of the gate's rules, at
   * least 25 hours); past it the hourly job deletes them and their stays, keeping the daily counts.
   */
  visitorMode: z.boolean().default(false),
});
export type ClubSettings = z.infer<typeof ClubSettings>;

/**
 * The club's location as answered (seed 001 §9 "Location"; docs/calendar.md):
 * `city` is the built-in city's id (GET /api/Reference/Locations) or null for
 * a custom location; degrees, metres, an IANA zone; `il` the Israel schedule.
 */
export const ClubLocationSchema = z.object({
  city: z.string().nullable(),
  name: z.string(),
  countryCode: z.string(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  elevation: z.number().min(0),
  timeZone: z.string(),
  il: z.boolean(),
  geoId: z.string().nullable(),
  /** The club's candle-lighting minutes before sunset; null: the place's custom (docs/calendar.md "Candle lighting"). */
  candleLightingMins: z.number().int().nullable(),
  /** The minutes every candle-lighting time uses: `candleLightingMins`, else the place's custom (20 in Tel Aviv). */
  candleLightingMinsInForce: z.number().int(),
});

/** GET /api/Reference/Locations: the built-in cities (locations.ts BUILT_IN_CITIES). */
export const BuiltInCitySchema = z.object({
  id: z.string(),
  nameEn: z.string(),
  nameHe: z.string(),
  countryCode: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  elevation: z.number(),
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

/**
 * PATCH /api/Club/{id}: any subset of the settings, the club's name, the
 * operator-only fields, and the location (ClubLocationInput: a built-in city
 * or a custom location, validated as seed 001 §5).
 */
export const ClubPatch = z
  .strictObject({
    ...settingsShape,
    name: text(100).trim().min(1, { message: 'required' }),
    currency: z.union([376, 840, 978, 826, 348].map((c) => z.literal(c))),
    licancesAmount: z.number().int().min(0).max(10_000_000),
    location: ClubLocationInput,
  })
  .partial();
export type ClubPatch = z.infer<typeof ClubPatch>;

// ---------------------------------------------------------------- reference data

export const CitiesQuery = z.object({ country: z.enum(['Israel', 'UK', 'USA', 'Hungary', 'Belgium']) });
export type CitiesQuery = z.infer<typeof CitiesQuery>;
export const Cities = z.array(z.string());

export { ENTRANCE_STATES, HALACHIC_TIMES };
