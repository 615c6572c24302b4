/**
 * Entrance log statuses (seed 000 §4, and 14–16 of issue 36) and the reason table 0–34.
 *
 * The seeds name the reasons but not their numbers ("The individual
 * code-to-meaning mapping between 0 and 28: not shown"), so this table is
 * ours; it is documented in docs/entrance-reasons.md and never renumbered.
 */

export const EntranceStatus = {
  Approved: 1,
  SubscriptionExpired: 2,
  GeneralError: 3,
  ClosedToGroup: 4,
  NoBalance: 5,
  EntryQuotaUsed: 6,
  ReEntry: 7,
  CustomerNotFound: 8,
  PaymentError: 9,
  LicenseExpired: 10,
  TerminalNotApproved: 11,
  GlobalEntrancesLimit: 12,
  RapidReEntry: 13,
  /** The club is in lockdown (issue 36, docs/gate-safety.md): everyone refused but the lockdown overrides. */
  Lockdown: 14,
  /** The gate's area is at its capacity (issue 36, docs/gate-safety.md "Occupancy"). */
  AreaFull: 15,
  /** Anti-passback, hard: entered and not exited since (issue 36, docs/gate-safety.md "Anti-passback"). */
  AntiPassback: 16,
  Payment: 9999,
} as const;
export type EntranceStatus = (typeof EntranceStatus)[keyof typeof EntranceStatus];
export const ENTRANCE_STATUSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 9999] as const;

/** Colour class of a status (seed 000 §4): failed red, entry green, payment cyan. */
export type StatusColor = 'entry' | 'failed' | 'payment' | 'worthless';
export function statusColor(status: number): StatusColor {
  if (status === EntranceStatus.Approved) return 'entry';
  if (status === EntranceStatus.Payment) return 'payment';
  if (status >= 2 && status <= 16) return 'failed';
  return 'worthless';
}
export const STATUS_COLOR_HEX: Record<StatusColor, string> = {
  // Dark enough for white text at WCAG AA (4.5:1): entry 5.6:1, failed 5.6:1, payment 6.1:1 (docs/accessibility.md).
  entry: '#237804',
  failed: '#cf1322',
  payment: '#006d75',
  worthless: 'transparent',
};

/** Reason codes 0–34 (ours; see docs/entrance-reasons.md). */
export const Reason = {
  EntryBySubscription: 0,
  EntryByBonus: 1,
  EntryByChargedMoney: 2,
  EntryFreeOpen: 3,
  EntryByManager: 4,
  EntryByParentSubscription: 5,
  EntryByParentMoney: 6,
  EntryByPayment: 7,
  PaymentForSubscription: 8,
  PaymentForEntrance: 9,
  PaymentForMoneyLoad: 10,
  PaymentForLicense: 11,
  PaymentForTempBalance: 12,
  PaymentForDebt: 13,
  PaymentForMultipleItems: 14,
  PaymentByManager: 15,
  PaymentByParent: 16,
  SubscriptionExpired: 17,
  ClosedToGroup: 18,
  LicenseExpired: 19,
  EntryQuotaExceeded: 20,
  DoubleEntry: 21,
  EntryLoadLimiting: 22,
  TooLittleTimeBetweenEntries: 23,
  NoBalance: 24,
  ClientNotFound: 25,
  TerminalNotApproved: 26,
  PaymentError: 27,
  ClientInactive: 28,
  /**
   * Admitted from the front desk although the gate refused, by a user with roleOverrideEntrance and
   * a recorded reason (entrance_overrides; docs/front-desk.md "The override rule").
   */
  EntryByStaffOverride: 29,
  /** Refused: the club is in lockdown (status 14; docs/gate-safety.md). */
  Lockdown: 30,
  /** Admitted during a lockdown: a client with a lockdown override (staff; docs/gate-safety.md). */
  EntryLockdownOverride: 31,
  /** Admitted while every gate of the club is held open (open-all, evacuation; docs/gate-safety.md). */
  EntryEmergencyOpen: 32,
  /** Refused: the gate's area is at its capacity (status 15; docs/gate-safety.md "Occupancy"). */
  AreaFull: 33,
  /** Refused: entered and not exited since (hard anti-passback, status 16; docs/gate-safety.md). */
  AntiPassback: 34,
  /**
   * Immersion appointments (issue 38, docs/appointments.md "At the gate"): the client's group requires
   * a booking and she has none around now. 40 and up, so the numbers other work adds after 29 stay free.
   */
  NoBooking: 40,
  /** Appointments: she has a booking today, but now is outside its gate window (e.g. an hour early). */
  OutsideBookingWindow: 41,
  /** Appointments: a one-time booking code (`*` and six digits) that no booking of the club has (status 8). */
  BookingCodeUnknown: 42,
  /** Appointments: a one-time booking code already spent by an admission (status 4). */
  BookingCodeUsed: 43,
  /** Appointments: a one-time booking code outside its booking's gate window, or of a cancelled booking (status 4). */
  BookingCodeExpired: 44,
} as const;
export type Reason = (typeof Reason)[keyof typeof Reason];

/** i18n key of a reason, used by the console and the terminal display. */
export const REASON_KEYS: Record<number, string> = Object.fromEntries(Object.entries(Reason).map(([k, v]) => [v, k]));

/** Payment type of an entrance, for "entries by payment type" (seed 000 §2, dashboard). */
export const EntrancePaymentType = {
  None: 0,
  Subscription: 1,
  Money: 2,
  Free: 3,
  Manager: 4,
  Bonus: 5,
  /** Paid at the terminal (reason 7 EntryByPayment). Logged as None with the purchase; the dashboard derives it. */
  Payment: 6,
} as const;
export type EntrancePaymentType = (typeof EntrancePaymentType)[keyof typeof EntrancePaymentType];
