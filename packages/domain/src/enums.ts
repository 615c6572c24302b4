/**
 * Enumerations of the product, with the numeric values of seed 000 section 3
 * ("Enumerations") and section 4 (statuses). Values travel over the wire and
 * are stored in the database, so they never change once published.
 */

/** ISO 4217 numeric currency codes (seed 000 §3); Mix 9999 marks mixed-currency totals. */
export const Currency = { ILS: 376, USD: 840, EUR: 978, GBP: 826, HUF: 348, Mix: 9999 } as const;
export type Currency = (typeof Currency)[keyof typeof Currency];
export const CURRENCY_SYMBOL: Record<number, string> = {
  376: '₪',
  840: '$',
  978: '€',
  826: '£',
  348: 'Ft',
  9999: '',
};

/** Fee type of credit charges and credit entrances (seed 000 §3). */
export const FeeType = { NoFee: 0, Fixed: 1, Percentage: 2 } as const;
export type FeeType = (typeof FeeType)[keyof typeof FeeType];

/** Payment method of one payment within a purchase (seed 000 §3). */
export const PaymentMethod = {
  Cash: 0,
  CreditCard: 1,
  CreditCardToken: 2,
  TempCredit: 3,
  CreditCardEmv: 4,
  Masav: 5,
  Free: 6,
} as const;
export type PaymentMethod = (typeof PaymentMethod)[keyof typeof PaymentMethod];
/**
 * Payment from the money balance ("paid by beats", seed 001 §3). The seed's
 * payment-method enumeration has no value for it; 7 is ours, the next free value.
 * Here (not in schemas/purchases.ts) so that the report catalogue stays free of zod.
 */
export const PAYMENT_METHOD_BEATS = 7;

/** Purchase item type (seed 000 §3). */
export const PurchaseItemType = {
  NewSubscription: 1,
  ChargingMoney: 2,
  Towel: 3,
  Entrance: 4,
  PayDebt: 5,
  License: 6,
  Product: 10,
} as const;
export type PurchaseItemType = (typeof PurchaseItemType)[keyof typeof PurchaseItemType];

/** Other payment kind (seed 000 §3). */
export const OtherPaymentKind = {
  Undefined: 0,
  CreditCard: 1,
  BankPaymentDetails: 2,
  BankPaymentByTransafer: 3,
  Cash: 4,
  Check: 5,
} as const;

/**
 * Halachic time types 1–8 (seed 000 §3): the zmanim a schedule row may start
 * or end at. Computed by `@hebcal/core` (see calendar.ts).
 */
export const HalachicTime = {
  Dawn: 1,
  EarliestTime: 2,
  Sunrise: 3,
  Midday: 4,
  Midnight: 5,
  Sunset: 6,
  Nightfall: 7,
  CandleLighting: 8,
} as const;
export type HalachicTime = (typeof HalachicTime)[keyof typeof HalachicTime];
export const HALACHIC_TIMES = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/**
 * Entrance (door) state of a group, schedule row or terminal (seed 000 §3;
 * seed 001 §4 adds RestrictAccessOnly, whose number the seeds do not show:
 * we use 7, the next free value after OpenWithPay 6).
 */
export const EntranceState = {
  Closed: 1,
  Opened: 2,
  FreeOpen: 3,
  OpenWithMoneyValueOnly: 4,
  OpenWithPay: 6,
  RestrictAccessOnly: 7,
} as const;
export type EntranceState = (typeof EntranceState)[keyof typeof EntranceState];
export const ENTRANCE_STATES = [1, 2, 3, 4, 6, 7] as const;

/** Staff user role (seed 000 §3). */
export const UserRole = {
  REGULAR: 1,
  GENERAL: 2,
  MANAGER: 3,
  TECHNICIAN: 4,
  EMPLOYEE: 5,
  EMPLOYEE_ADMIN: 6,
  KALA: 7,
} as const;
export type UserRole = (typeof UserRole)[keyof typeof UserRole];

/** User level (seed 000 §3): SuperUser is the service operator. */
export const UserLevel = { Regular: 0, SuperUser: 1 } as const;
export type UserLevel = (typeof UserLevel)[keyof typeof UserLevel];

/** Client type (seed 001 §3). */
export const ClientType = { Regular: 1, Manager: 2, Technician: 3 } as const;
export type ClientType = (typeof ClientType)[keyof typeof ClientType];

/** Client status (seed 001 §3, §4). */
export const ClientStatus = { Active: 1, Inactive: 2, Deleted: 3 } as const;
export type ClientStatus = (typeof ClientStatus)[keyof typeof ClientStatus];

/** How a client identifies at a terminal (seed 001 §3). */
export const IdentificationKind = ['card', 'fingerprint', 'face', 'code', 'system'] as const;
export type IdentificationKind = (typeof IdentificationKind)[number];

/** Subscription end types (seed 001 §4). */
export const SubscriptionEndType = {
  EndOfHebrewMonth: 1,
  EndOfGregorianMonth: 2,
  HebrewDayToDay: 3,
  GregorianDayToDay: 4,
} as const;
export type SubscriptionEndType = (typeof SubscriptionEndType)[keyof typeof SubscriptionEndType];

/** Terminal connection type (seed 000 §3). */
export const TerminalConnectionType = { UsbRelay: 1, Paylink: 2 } as const;

/** Year of a subscription end date that means "unlimited" (seed 001 §9). */
export const UNLIMITED_END_YEAR = 2125;

/** Seconds within which a second presentation is a rapid re-entry (seed 001 §4, §9). */
export const RAPID_REENTRY_SECONDS = 2;

/** Minimum licenses before the console warns (seed 000 §8, §9). */
export const LOW_LICENSE_THRESHOLD = 11;

/** Club id thresholds (seed 000 §1, §9). */
export const USA_CLUB_FROM = 4000;
export const KALA_CLUB_FROM = 7000;

/** Money scale factor (seed 000 §9): amounts are integers in 1/100 of the currency unit. */
export const SCALE_FACTOR = 100;

/** Latest terms-of-use version (seed 000 §9). */
export const LATEST_TERMS_VERSION = 1;
