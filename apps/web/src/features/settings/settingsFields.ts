import type { Club } from '@venue/domain';

/** Setting values by key, as the form holds them. */
export type Values = Record<string, unknown>;

/** How a setting is edited. */
export type Kind =
  | 'text'
  | 'email'
  | 'switch'
  | 'int'
  | 'money'
  | 'country'
  | 'city'
  | 'currency'
  | 'language'
  | 'languages'
  | 'fee'
  | 'feeValue'
  | 'percentBp'
  | 'group';

/** One setting of the screen. */
export interface Field {
  key: string;
  kind: Kind;
  /** i18n key suffix of the unit shown after a number (settings.unit_<x>). */
  unit?: string;
  /** For a fee value: its fee type field. */
  feeTypeKey?: string;
  span?: number;
  /** Shows the explanation `settings.<key>Help` under the setting. */
  help?: boolean;
}

/** The settings screen as data: one entry per section of seed 000 §3 / seed 001 §3. */
export const SECTIONS: { key: string; fields: Field[] }[] = [
  {
    key: 'general',
    fields: [
      { key: 'name', kind: 'text' },
      { key: 'invoiceEmail', kind: 'email' },
      { key: 'companyNumber', kind: 'text' },
      { key: 'licancesAmount', kind: 'int' },
      { key: 'licenseYearlyPrice', kind: 'money' },
    ],
  },
  {
    key: 'address',
    fields: [
      { key: 'country', kind: 'country' },
      { key: 'usSalesTaxBp', kind: 'percentBp' },
      { key: 'addressCity', kind: 'city' },
      { key: 'addressStreet', kind: 'text' },
      { key: 'addressHouseNumber', kind: 'text' },
    ],
  },
  {
    key: 'currencyLanguage',
    fields: [
      { key: 'currency', kind: 'currency' },
      { key: 'mainLanguage', kind: 'language' },
      { key: 'languages', kind: 'languages' },
    ],
  },
  {
    key: 'fees',
    fields: [
      { key: 'creditChargeFeeType', kind: 'fee' },
      { key: 'creditChargeFeeValue', kind: 'feeValue', feeTypeKey: 'creditChargeFeeType' },
      { key: 'entranceCreditFeeType', kind: 'fee' },
      { key: 'entranceCreditFeeValue', kind: 'feeValue', feeTypeKey: 'entranceCreditFeeType' },
    ],
  },
  {
    key: 'cash',
    fields: [
      { key: 'maxCashOverpayment', kind: 'money' },
      { key: 'minChargeAmount', kind: 'money' },
      { key: 'maxChargeAmount', kind: 'money' },
    ],
  },
  {
    key: 'loadLimit',
    fields: [
      { key: 'entrancesLimitPeople', kind: 'int', unit: 'people' },
      { key: 'entrancesLimitMinutes', kind: 'int', unit: 'minutes' },
    ],
  },
  {
    key: 'selfRegister',
    fields: [
      { key: 'selfRegisterDefaultGroupId', kind: 'group' },
      { key: 'selfRegisterNoIdRequired', kind: 'switch' },
      { key: 'isLicenseRequiredInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentFingerprintInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentCardInSelfRegister', kind: 'switch' },
      { key: 'allowEnrollmentFaceInSelfRegister', kind: 'switch' },
    ],
  },
  {
    key: 'autoRenew',
    fields: [
      { key: 'autoRenewDaysBefore', kind: 'int', unit: 'days' },
      { key: 'autoRenewDaysAfter', kind: 'int', unit: 'days' },
    ],
  },
  {
    key: 'quickExit',
    fields: [
      { key: 'isQuickExitEnabled', kind: 'switch' },
      { key: 'quickExitMinMinutes', kind: 'int', unit: 'minutes' },
      { key: 'quickExitMaxMinutes', kind: 'int', unit: 'minutes' },
      { key: 'quickExitSubscriptionReward', kind: 'money' },
      { key: 'quickExitTransactionReward', kind: 'money' },
    ],
  },
  {
    key: 'features',
    fields: [
      { key: 'isKalaSubscriptionEnabled', kind: 'switch' },
      { key: 'subscriptionTvilotKalaQty', kind: 'int' },
      { key: 'isEmployeeAttendanceEnabled', kind: 'switch' },
      { key: 'isEmployeeBiometricAuthEnabled', kind: 'switch' },
      { key: 'isEmployeeEnrollmentEnabled', kind: 'switch' },
      { key: 'isUpsellEnabled', kind: 'switch' },
      { key: 'isIncidentReportEnabled', kind: 'switch' },
      { key: 'isSaferPaymentsEnabled', kind: 'switch' },
      { key: 'isLimitedResetCashLevelsReportEnabled', kind: 'switch' },
    ],
  },
  {
    // Retention of personal data (issue 39, docs/privacy.md "Retention").
    key: 'privacy',
    fields: [
      { key: 'retentionEntranceDays', kind: 'int', unit: 'days' },
      { key: 'retentionBiometricDays', kind: 'int', unit: 'days' },
      { key: 'retentionAttendanceDays', kind: 'int', unit: 'days' },
      // docs/privacy.md "Visitor mode".
      { key: 'visitorMode', kind: 'switch', help: true, span: 24 },
    ],
  },
  {
    // docs/attendance.md "Forgotten exits" and "Payroll rules".
    key: 'attendance',
    fields: [
      { key: 'attendanceAutoCloseHour', kind: 'int' },
      { key: 'payrollWorkWeekDays', kind: 'int', unit: 'days' },
      { key: 'payrollWeeklyMinutes', kind: 'int', unit: 'minutes' },
      { key: 'payrollOvertimeFirstTierMinutes', kind: 'int', unit: 'minutes' },
    ],
  },
];

const ALL_FIELDS = SECTIONS.flatMap((s) => s.fields);

/** The club's values of every setting on the screen. */
export function valuesOf(club: Club): Values {
  const c = club as unknown as Values;
  return Object.fromEntries(ALL_FIELDS.map((f) => [f.key, c[f.key]]));
}

/** The changed settings only (seed 001 §8 "No changes made" when there are none). */
export function changedSettings(initial: Values, current: Values): Values {
  const out: Values = {};
  for (const f of ALL_FIELDS) {
    if (!(f.key in current)) continue;
    if (JSON.stringify(initial[f.key] ?? null) !== JSON.stringify(current[f.key] ?? null)) out[f.key] = current[f.key];
  }
  return out;
}
