import type { PermissionFlag } from './permissions.js';
import type { PersonalDataRead } from './contract/route.js';
import { ENTRANCE_STATUSES } from './statuses.js';
import type { ReportFilterKey } from './reports/filter-keys.js';
import { enumChoices, type ReportFilterOptions } from './reports/filters.js';

/**
 * The report catalogue (seed 000 §2 "Reports section", §6 visibility, §7
 * "Reports"; seed 001 §2 filters): what each report is, shared by the server
 * (which adds the SQL of each column, docs/reports.md) and the console (which
 * renders any report from it). A new report is one entry here plus its query
 * definition on the server — never a copy of another report.
 */

/** How a value is shown and exported. Money is minor units (agorot). */
export type ReportValueType =
  | 'text'
  | 'int'
  | 'money'
  | 'datetime'
  | 'date'
  | 'bool'
  | 'entranceStatus'
  | 'reason'
  | 'paymentMethod'
  | 'itemType'
  | 'purchaseStatus'
  | 'minutes'
  | 'quickExitType'
  | 'debtSource'
  | 'activityKind'
  | 'auditAction'
  /** An entity of the audit log (labels.ts AuditEntity). */
  | 'auditEntity'
  /** What a read of personal data was about (labels.ts personalDataKind; the access-log report). */
  | 'personalDataKind'
  | 'cashState'
  /** Excess kept by a cash session: 1 still in the terminal's excess box, 2 collected (the box was emptied after). */
  | 'excessState'
  /** How licenses reached the club's pool: 1 card payment (license order), 2 approved bank transfer. */
  | 'licenseSource'
  /**
   * Safer payments: how a card charge of unknown outcome was settled —
   * 1 awaiting the provider, 2 charged and refunded, 3 charged and the refund
   * failed, 4 not charged.
   */
  | 'saferState'
  /** A bank-transfer license request's status (LicenseRequestStatus: 1 Pending … 5 CancelledByManager). */
  | 'licenseRequestStatus'
  /** A bookable room's kind (BOOKING_RESOURCE_KINDS: prepBath, prepShower, pool; labels.ts bookingKind). */
  | 'bookingKind';

export { REPORT_FILTER_KEYS, type ReportFilterKey } from './reports/filter-keys.js';
export * from './reports/filters.js';

/** Distinct records one user opens within an hour from which the access-log report flags an anomaly (docs/privacy.md). */
export const ACCESS_ANOMALY_RECORDS = 100;

export interface ReportColumnMeta {
  key: string;
  type: ReportValueType;
  /** Sortable on the server; a string is the sort key sent (when it differs from `key`). */
  sortable?: boolean | string;
  /** In the row data only (an id for links), not a column. */
  field?: boolean;
  /** Hidden on a phone. */
  wide?: boolean;
  /** Shown in the failure colour when above zero (an open debt, change not paid); a yes/no column: "yes" in it, "no" plain. */
  alert?: boolean;
  /**
   * A field of the row's card on a phone (docs/accessibility.md "Phone cards"). A report that marks
   * none shows its first six columns on the card.
   */
  card?: true;
}

export interface ReportTotalMeta {
  key: string;
  type: ReportValueType;
}

/** A breakdown inside the totals: `{[key]: {[group]: value}}`, e.g. amount per payment method. */
export interface ReportBreakdownMeta {
  key: string;
  /** What the group keys are (labels). */
  by: ReportValueType;
  /** What the values are. */
  type: ReportValueType;
}

export interface ReportMeta {
  /** Stable id: grid state key, export file name, i18n key `reports.<id>.title`. */
  id: string;
  /** `POST /api/Report/<call>` (seed 000 §7 spelling). */
  call: string;
  /** Navigation key (packages/domain navigation.ts) and console route. */
  navKey: string;
  /**
   * Permission the server requires (seed 000 §6). None where the seed's
   * visibility rule names no flag (quick exit: the club setting alone), so
   * that whoever sees the entry can open it.
   */
  permission?: PermissionFlag;
  filters: readonly ReportFilterKey[];
  /** Choices and placeholder of the status filter (what "status" means differs per report); required with it. */
  statusFilter?: ReportFilterOptions;
  /** The console refreshes the report as entrances arrive on its live feed (at most once a second; seed 000 §2). */
  live?: boolean;
  columns: readonly ReportColumnMeta[];
  totals: readonly ReportTotalMeta[];
  breakdowns?: readonly ReportBreakdownMeta[];
  defaultSort: string;
  /** Order when the call names none (default 'desc': newest first). */
  defaultOrder?: 'asc' | 'desc';
  /** Grouped report: rows are aggregates (no paging beyond the groups). */
  grouped?: boolean;
  /** Filters the call must carry (400 without them). */
  required?: readonly ReportFilterKey[];
  /**
   * A cross-club report of the service operator (docs/operator.md "Cross-club
   * reports"): operator only (403 to every club user), over every club, its
   * period in the operator's zone (Asia/Jerusalem).
   */
  operator?: true;
  /**
   * A report of one client (its `clientId` filter): each answer with a client named writes an
   * access row (issue 39, docs/privacy.md "Who looked").
   */
  personalData?: PersonalDataRead;
}

const client = [
  { key: 'clientId', type: 'int', field: true },
  { key: 'clientNumber', type: 'int', wide: true },
  { key: 'clientName', type: 'text', sortable: 'client' },
] as const satisfies readonly ReportColumnMeta[];

/** The class filter of the operator's cross-club reports (seed 000 §1): 1 regular, 2 USA, 3 kala. */
const clubClassFilter: ReportFilterOptions = {
  kind: 'many',
  choices: enumChoices([1, 2, 3], 'reports.clubClass.'),
  placeholder: 'reports.allClasses',
};

const clubColumns = [
  { key: 'clubId', type: 'int', field: true },
  { key: 'externalClubId', type: 'int', sortable: 'club' },
  { key: 'clubName', type: 'text' },
] as const satisfies readonly ReportColumnMeta[];

/**
 * The booking reports (issue 38, docs/appointments.md "Reports"): staff with roleManageBookings
 * only. Each reads the live bookings and what retention keeps of them (booking_counts,
 * booking_waitlist_counts), so a period past retention shows counts, not zeros. Rows name a
 * date, an hour and a room kind — no person — except the no-show list, which names the client
 * only to staff with roleViewBookingNames.
 */
const BOOKING_REPORTS = {
  /** Per club-local day and room kind: booked, attended, no-shows, cancelled, from the waitlist. */
  bookings: {
    id: 'bookings',
    call: 'GetBookingsReport',
    navKey: 'bookingsReport',
    permission: 'roleManageBookings',
    filters: [],
    grouped: true,
    columns: [
      { key: 'id', type: 'text', field: true },
      { key: 'date', type: 'date', sortable: true, card: true },
      { key: 'roomKind', type: 'bookingKind', sortable: true, card: true },
      { key: 'booked', type: 'int', sortable: true, card: true },
      { key: 'attended', type: 'int', sortable: true, card: true },
      { key: 'noShows', type: 'int', sortable: true, card: true },
      { key: 'cancelled', type: 'int', sortable: true, card: true },
      { key: 'fromWaitlist', type: 'int', wide: true },
    ],
    totals: [
      { key: 'booked', type: 'int' },
      { key: 'attended', type: 'int' },
      { key: 'noShows', type: 'int' },
      { key: 'cancelled', type: 'int' },
      { key: 'fromWaitlist', type: 'int' },
    ],
    breakdowns: [{ key: 'byRoomKind', by: 'bookingKind', type: 'int' }],
    defaultSort: 'date',
  },
  /** Every no-show of the period (time, room kind, room; the client only with roleViewBookingNames). */
  noShows: {
    id: 'noShows',
    call: 'GetNoShowsReport',
    navKey: 'noShowsReport',
    permission: 'roleManageBookings',
    filters: [],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true, card: true },
      { key: 'roomKind', type: 'bookingKind', sortable: true, card: true },
      { key: 'roomName', type: 'text', wide: true },
      { key: 'clientId', type: 'int', field: true },
      { key: 'clientNumber', type: 'int', wide: true },
      { key: 'clientName', type: 'text', card: true },
    ],
    totals: [
      { key: 'noShows', type: 'int' },
      { key: 'retained', type: 'int' },
      { key: 'booked', type: 'int' },
    ],
    defaultSort: 'at',
  },
  /** Per room kind and local hour: bookings, booked and bookable minutes, occupancy (%). */
  roomUse: {
    id: 'roomUse',
    call: 'GetRoomUseReport',
    navKey: 'roomUseReport',
    permission: 'roleManageBookings',
    filters: [],
    grouped: true,
    columns: [
      { key: 'id', type: 'text', field: true },
      { key: 'roomKind', type: 'bookingKind', sortable: true, card: true },
      { key: 'hour', type: 'text', sortable: true, card: true },
      { key: 'bookings', type: 'int', sortable: true, card: true },
      { key: 'bookedMinutes', type: 'minutes', wide: true },
      { key: 'bookableMinutes', type: 'minutes', wide: true },
      { key: 'occupancy', type: 'int', sortable: true, card: true },
    ],
    totals: [
      { key: 'bookings', type: 'int' },
      { key: 'bookedMinutes', type: 'minutes' },
      { key: 'bookableMinutes', type: 'minutes' },
      { key: 'occupancy', type: 'int' },
    ],
    defaultSort: 'roomKind',
    defaultOrder: 'asc',
  },
  /** Per club-local day and room kind: joined the waitlist, offered a slot, accepted, expired, fulfilment (%). */
  waitlist: {
    id: 'waitlist',
    call: 'GetWaitlistReport',
    navKey: 'waitlistReport',
    permission: 'roleManageBookings',
    filters: [],
    grouped: true,
    columns: [
      { key: 'id', type: 'text', field: true },
      { key: 'date', type: 'date', sortable: true, card: true },
      { key: 'roomKind', type: 'bookingKind', sortable: true, card: true },
      { key: 'joined', type: 'int', sortable: true, card: true },
      { key: 'offered', type: 'int', sortable: true, card: true },
      { key: 'accepted', type: 'int', sortable: true, card: true },
      { key: 'expired', type: 'int', wide: true },
      { key: 'fulfilment', type: 'int', sortable: true, card: true },
    ],
    totals: [
      { key: 'joined', type: 'int' },
      { key: 'offered', type: 'int' },
      { key: 'accepted', type: 'int' },
      { key: 'expired', type: 'int' },
      { key: 'fulfilment', type: 'int' },
    ],
    defaultSort: 'date',
  },
} as const satisfies Record<string, ReportMeta>;

/**
 * The service operator's cross-club reports (issue 17; docs/operator.md
 * "Cross-club reports"): every club, or the classes chosen in the status
 * filter (seed 000 §1 by externalClubId). Our calls: the seed names "product
 * purchases by clubs" and "licenses loaded" only.
 */
const OPERATOR_REPORTS = {
  clubProducts: {
    id: 'clubProducts',
    call: 'GetClubsProductPurchasesReport',
    navKey: 'clubProductsReport',
    operator: true,
    filters: ['status'],
    statusFilter: clubClassFilter,
    columns: [
      ...clubColumns,
      { key: 'productId', type: 'int', field: true },
      { key: 'productName', type: 'text', sortable: 'product' },
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'total', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'cells', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'total', type: 'money' },
    ],
    defaultSort: 'club',
    defaultOrder: 'asc',
  },
  clubLicenses: {
    id: 'clubLicenses',
    call: 'GetClubsLicensesReport',
    navKey: 'clubLicensesReport',
    operator: true,
    filters: ['status'],
    statusFilter: clubClassFilter,
    columns: [
      ...clubColumns,
      { key: 'licensesLeft', type: 'int', sortable: true },
      { key: 'loaded', type: 'int', sortable: true },
      { key: 'used', type: 'int', sortable: true },
      { key: 'pending', type: 'int' },
      { key: 'low', type: 'bool', alert: true },
    ],
    totals: [
      { key: 'clubs', type: 'int' },
      { key: 'licensesLeft', type: 'int' },
      { key: 'loaded', type: 'int' },
      { key: 'used', type: 'int' },
    ],
    defaultSort: 'club',
    defaultOrder: 'asc',
  },
  clubMonthly: {
    id: 'clubMonthly',
    call: 'GetClubsEntrancesAndIncomeReport',
    navKey: 'clubMonthlyReport',
    operator: true,
    filters: ['status'],
    statusFilter: clubClassFilter,
    columns: [
      ...clubColumns,
      { key: 'month', type: 'text', sortable: true },
      { key: 'entrances', type: 'int', sortable: true },
      { key: 'income', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'entrances', type: 'int' },
      { key: 'income', type: 'money' },
    ],
    defaultSort: 'month',
  },
  clubLowLicenses: {
    id: 'clubLowLicenses',
    call: 'GetClubsLowLicensesReport',
    navKey: 'clubLowLicensesReport',
    operator: true,
    filters: ['status'],
    statusFilter: clubClassFilter,
    columns: [
      ...clubColumns,
      { key: 'licensesLeft', type: 'int', sortable: true },
      { key: 'pending', type: 'int' },
      { key: 'lastLoadAt', type: 'datetime', sortable: true },
    ],
    totals: [
      { key: 'clubs', type: 'int' },
      { key: 'licensesLeft', type: 'int' },
    ],
    defaultSort: 'licensesLeft',
    defaultOrder: 'asc',
  },
} as const satisfies Record<string, ReportMeta>;

export const REPORTS = {
  entrances: {
    id: 'entrances',
    call: 'GetEnteracesReport',
    navKey: 'entranceReport',
    personalData: { kind: 'entrances', of: 'client' },
    permission: 'roleEntrancesReport',
    filters: ['client', 'terminalId', 'groupId', 'clientId', 'status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices(ENTRANCE_STATUSES, 'status.'),
      placeholder: 'report.allStatuses',
    },
    live: true,
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      ...client,
      { key: 'groupName', type: 'text', wide: true },
      { key: 'terminalId', type: 'int', field: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'status', type: 'entranceStatus', sortable: true },
      { key: 'reason', type: 'reason', wide: true },
      { key: 'identificationKind', type: 'text', field: true },
      { key: 'amount', type: 'money' },
      { key: 'paymentType', type: 'int', field: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'approved', type: 'int' },
      { key: 'failed', type: 'int' },
      { key: 'amount', type: 'money' },
    ],
    breakdowns: [{ key: 'byStatus', by: 'entranceStatus', type: 'int' }],
    defaultSort: 'at',
  },
  payments: {
    id: 'payments',
    call: 'GetPaymentsReport',
    navKey: 'paymentReport',
    permission: 'rolePaymentesReport',
    filters: ['client', 'paymentMethod', 'clientId', 'terminalId', 'userId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'invoiceNumber', type: 'int', sortable: true },
      ...client,
      { key: 'method', type: 'paymentMethod', sortable: true },
      { key: 'amount', type: 'money', sortable: true },
      { key: 'lastFour', type: 'text', wide: true },
      { key: 'terminalName', type: 'text', wide: true },
      { key: 'userName', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'amount', type: 'money' },
    ],
    breakdowns: [{ key: 'byMethod', by: 'paymentMethod', type: 'money' }],
    defaultSort: 'at',
  },
  purchases: {
    id: 'purchases',
    call: 'GetPurchases',
    navKey: 'purchasesReport',
    permission: 'rolePurchasesReport',
    filters: ['client', 'clientId', 'itemType', 'productId', 'paymentMethod', 'status', 'terminalId', 'userId'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2, 3], 'money.paymentStatus.'),
      placeholder: 'report.allStatuses',
    },
    // The phone card: when, the document, who, the total with VAT, how it was paid and its status (issue 35).
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true, card: true },
      { key: 'invoiceNumber', type: 'int', sortable: true, card: true },
      { key: 'clientId', type: 'int', field: true },
      { key: 'clientNumber', type: 'int', wide: true },
      { key: 'clientName', type: 'text', sortable: 'client', card: true },
      { key: 'items', type: 'text', wide: true },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money', sortable: true, card: true },
      // The methods of the purchase's payments, in the interface language ("Cash, Credit card").
      { key: 'paidBy', type: 'text', card: true },
      { key: 'paymentStatus', type: 'purchaseStatus', sortable: true, card: true },
      // What refunds, whole or partial, gave back of the purchase (docs/money.md "Refunds").
      { key: 'refundedAmount', type: 'money' },
      { key: 'paidCash', type: 'money', wide: true },
      { key: 'paidCredit', type: 'money', wide: true },
      { key: 'paidBeats', type: 'money', wide: true },
      { key: 'paidTemp', type: 'money', wide: true },
      { key: 'paidOther', type: 'money', wide: true },
      { key: 'terminalName', type: 'text', wide: true },
      { key: 'userName', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money' },
      { key: 'refundedAmount', type: 'money' },
      { key: 'paidCash', type: 'money' },
      { key: 'paidCredit', type: 'money' },
      { key: 'paidBeats', type: 'money' },
      { key: 'paidTemp', type: 'money' },
      { key: 'paidOther', type: 'money' },
    ],
    defaultSort: 'at',
  },
  debts: {
    id: 'debts',
    call: 'GetDebts',
    navKey: 'debtsReport',
    permission: 'roleDebtsReport',
    filters: ['clientId', 'status', 'userId'],
    statusFilter: {
      kind: 'many',
      choices: [
        { value: 1, label: 'reports.debtOpen' },
        { value: 2, label: 'reports.debtPaid' },
      ],
      placeholder: 'report.allStatuses',
    },
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      ...client,
      { key: 'description', type: 'text', wide: true },
      { key: 'source', type: 'debtSource', wide: true },
      { key: 'returnReason', type: 'text' },
      { key: 'amount', type: 'money', sortable: true },
      { key: 'paid', type: 'money' },
      { key: 'open', type: 'money', sortable: true, alert: true },
      { key: 'userName', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'amount', type: 'money' },
      { key: 'paid', type: 'money' },
      { key: 'open', type: 'money' },
    ],
    defaultSort: 'at',
  },
  financial: {
    id: 'financial',
    call: 'GetFinancialReport',
    navKey: 'financialReport',
    permission: 'roleFinanicalReport',
    filters: ['itemType', 'terminalId', 'userId'],
    grouped: true,
    columns: [
      { key: 'itemType', type: 'itemType', sortable: true },
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money' },
      { key: 'fee', type: 'money' },
    ],
    breakdowns: [{ key: 'byMethod', by: 'paymentMethod', type: 'money' }],
    defaultSort: 'itemType',
    defaultOrder: 'asc',
  },
  cashTransactions: {
    id: 'cashTransactions',
    call: 'getCashTransactions',
    navKey: 'cashTransactionsReport',
    permission: 'roleCashReport',
    filters: ['terminalId', 'clientId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      ...client,
      { key: 'state', type: 'cashState' },
      { key: 'amountDue', type: 'money', wide: true },
      { key: 'inserted', type: 'money', sortable: true },
      { key: 'credited', type: 'money' },
      { key: 'changeDue', type: 'money', wide: true },
      { key: 'unpaid', type: 'money', wide: true, alert: true },
      { key: 'excess', type: 'money', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'inserted', type: 'money' },
      { key: 'credited', type: 'money' },
      { key: 'changeDue', type: 'money' },
      { key: 'unpaid', type: 'money' },
      { key: 'excess', type: 'money' },
    ],
    defaultSort: 'at',
  },
  cashManagement: {
    id: 'cashManagement',
    call: 'getResetCashLevels',
    navKey: 'cashManagementReport',
    permission: 'roleResetCashLevelsReport',
    filters: ['terminalId', 'userId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'userName', type: 'text' },
      { key: 'cashBoxTotal', type: 'money', sortable: true },
      { key: 'excessAmount', type: 'money' },
      { key: 'excessCount', type: 'int', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'cashBoxTotal', type: 'money' },
      { key: 'excessAmount', type: 'money' },
      { key: 'excessCount', type: 'int' },
    ],
    breakdowns: [{ key: 'byTerminal', by: 'text', type: 'money' }],
    defaultSort: 'at',
  },
  autoRenewal: {
    id: 'autoRenewal',
    call: 'GetAutoRenewSubscriptionLogs',
    navKey: 'autoRenewalReport',
    permission: 'roleAutoOperationsReport',
    filters: ['clientId', 'success'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      ...client,
      { key: 'success', type: 'bool', sortable: true },
      { key: 'error', type: 'text', wide: true },
      { key: 'amount', type: 'money', sortable: true },
      { key: 'startDate', type: 'date', wide: true },
      { key: 'endDate', type: 'date', wide: true },
      { key: 'purchaseId', type: 'int', field: true },
      { key: 'debtId', type: 'int', field: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'succeeded', type: 'int' },
      { key: 'failed', type: 'int' },
      { key: 'amount', type: 'money' },
    ],
    defaultSort: 'at',
  },
  quickExits: {
    id: 'quickExits',
    call: 'GetQuickExitsReport',
    navKey: 'quickExitReport',
    filters: ['terminalId', 'clientId', 'status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2, 7, 8, 9], 'reports.quickExitType.'),
      placeholder: 'reports.allOutcomes',
    },
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      ...client,
      { key: 'terminalName', type: 'text', sortable: 'terminal', wide: true },
      { key: 'type', type: 'quickExitType', sortable: true },
      { key: 'entranceAt', type: 'datetime', wide: true },
      { key: 'durationMinutes', type: 'minutes', sortable: true },
      { key: 'rewardAmount', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'rewarded', type: 'int' },
      { key: 'rewardAmount', type: 'money' },
      { key: 'averageMinutes', type: 'minutes' },
    ],
    breakdowns: [{ key: 'byType', by: 'quickExitType', type: 'int' }],
    defaultSort: 'at',
  },
  activities: {
    id: 'activities',
    call: 'GetEnteraceAndPayments',
    navKey: 'activitiesReport',
    permission: 'roleEntrancesPaymentsReport',
    filters: ['client', 'terminalId', 'clientId'],
    columns: [
      { key: 'id', type: 'text', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'kind', type: 'activityKind', sortable: true },
      ...client,
      { key: 'terminalName', type: 'text', sortable: 'terminal', wide: true },
      { key: 'status', type: 'entranceStatus' },
      { key: 'detail', type: 'text', wide: true },
      { key: 'amount', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'entrances', type: 'int' },
      { key: 'approved', type: 'int' },
      { key: 'entranceAmount', type: 'money' },
      { key: 'purchases', type: 'int' },
      { key: 'purchaseTotal', type: 'money' },
    ],
    defaultSort: 'at',
  },
  clientEntrances: {
    id: 'clientEntrances',
    call: 'GetClienstEnteraces',
    navKey: 'clients',
    personalData: { kind: 'entrances', of: 'client' },
    permission: 'roleViewClientsList',
    filters: ['clientId', 'terminalId', 'status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices(ENTRANCE_STATUSES, 'status.'),
      placeholder: 'report.allStatuses',
    },
    required: ['clientId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'groupName', type: 'text', wide: true },
      { key: 'status', type: 'entranceStatus', sortable: true },
      { key: 'reason', type: 'reason', wide: true },
      { key: 'amount', type: 'money' },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'approved', type: 'int' },
      { key: 'failed', type: 'int' },
      { key: 'amount', type: 'money' },
    ],
    defaultSort: 'at',
  },
  /**
   * Who looked (issue 39, docs/privacy.md "Who looked"): every read of one person's data in the
   * period, for the club's security officer; `anomaly` marks a read by a user who opened at least
   * ACCESS_ANOMALY_RECORDS distinct records in the hour up to it.
   */
  dataAccess: {
    id: 'dataAccess',
    call: 'GetDataAccessReport',
    navKey: 'dataAccessReport',
    permission: 'roleSecurityOfficer',
    filters: ['userId', 'clientId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true, card: true },
      { key: 'userName', type: 'text', sortable: 'user', card: true },
      { key: 'kind', type: 'personalDataKind', sortable: true, card: true },
      ...client,
      { key: 'subject', type: 'text', wide: true },
      { key: 'ip', type: 'text', wide: true },
      { key: 'recordsInHour', type: 'int', wide: true },
      { key: 'anomaly', type: 'bool', alert: true, card: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'users', type: 'int' },
      { key: 'clients', type: 'int' },
      { key: 'anomalies', type: 'int' },
    ],
    breakdowns: [{ key: 'byKind', by: 'personalDataKind', type: 'int' }],
    defaultSort: 'at',
  },
  managerActivity: {
    id: 'managerActivity',
    call: 'GetManagerActivityReport',
    navKey: 'managerActivityReport',
    permission: 'roleIsAdmin',
    filters: ['userId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'userName', type: 'text', sortable: 'user' },
      { key: 'action', type: 'auditAction', sortable: true },
      { key: 'entity', type: 'auditEntity', sortable: true },
      { key: 'entityId', type: 'text', wide: true },
      { key: 'ip', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'users', type: 'int' },
    ],
    breakdowns: [{ key: 'byEntity', by: 'auditEntity', type: 'int' }],
    defaultSort: 'at',
  },
  products: {
    id: 'products',
    call: 'GetProductsReport',
    navKey: 'productsReport',
    permission: 'roleProductsReport',
    filters: ['productId', 'terminalId', 'userId'],
    grouped: true,
    columns: [
      { key: 'productId', type: 'int', field: true },
      { key: 'productName', type: 'text', sortable: true },
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'amountBeforeVat', type: 'money', wide: true },
      { key: 'vat', type: 'money', wide: true },
      { key: 'total', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money' },
    ],
    defaultSort: 'total',
  },
  productSummary: {
    id: 'productSummary',
    call: 'GetProductSummaryReport',
    navKey: 'productSummaryReport',
    permission: 'roleProductsReport',
    filters: ['productId', 'terminalId', 'userId'],
    columns: [
      { key: 'productId', type: 'int', field: true },
      { key: 'productName', type: 'text', sortable: true },
      { key: 'price', type: 'money', wide: true },
      { key: 'active', type: 'bool', wide: true },
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'amountBeforeVat', type: 'money', wide: true },
      { key: 'vat', type: 'money', wide: true },
      { key: 'total', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'products', type: 'int' },
      { key: 'sold', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money' },
    ],
    defaultSort: 'total',
  },
  licensesUsed: {
    id: 'licensesUsed',
    call: 'GetLicensesUsedReport',
    navKey: 'licensesUsedReport',
    // Seed 000 §6 shows the entry to clubs with id < 7000 and names no flag (as quick exit).
    filters: ['clientId', 'userId', 'terminalId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      ...client,
      { key: 'invoiceNumber', type: 'int', wide: true },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'licenseExpiry', type: 'date', sortable: true },
      { key: 'total', type: 'money', sortable: true },
      { key: 'userName', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'clients', type: 'int' },
      { key: 'total', type: 'money' },
    ],
    defaultSort: 'at',
  },
  payoutErrors: {
    id: 'payoutErrors',
    call: 'GetPayoutErrorPurchases',
    navKey: 'payoutErrorReport',
    permission: 'roleCashReport',
    filters: ['terminalId', 'clientId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'clientId', type: 'int', field: true },
      { key: 'clientNumber', type: 'int', wide: true },
      { key: 'clientName', type: 'text', sortable: 'client' },
      { key: 'amountDue', type: 'money', wide: true },
      { key: 'inserted', type: 'money' },
      { key: 'changeDue', type: 'money', wide: true },
      { key: 'unpaid', type: 'money', sortable: true, alert: true },
      { key: 'error', type: 'text', wide: true },
      { key: 'invoiceNumber', type: 'int' },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'inserted', type: 'money' },
      { key: 'unpaid', type: 'money' },
    ],
    defaultSort: 'at',
  },
  productMatrix: {
    id: 'productMatrix',
    call: 'GetProductMatrixReport',
    navKey: 'productMatrixReport',
    permission: 'roleProductsReport',
    filters: ['productId', 'terminalId', 'userId'],
    grouped: true,
    columns: [
      { key: 'productId', type: 'int', field: true },
      { key: 'productName', type: 'text', sortable: true },
      { key: 'terminalId', type: 'int', field: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'purchases', type: 'int', wide: true },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'amountBeforeVat', type: 'money', wide: true },
      { key: 'vat', type: 'money', wide: true },
      { key: 'total', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'cells', type: 'int' },
      { key: 'purchases', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amountBeforeVat', type: 'money' },
      { key: 'vat', type: 'money' },
      { key: 'total', type: 'money' },
    ],
    breakdowns: [{ key: 'byTerminal', by: 'text', type: 'money' }],
    defaultSort: 'productName',
    defaultOrder: 'asc',
  },
  excessStatus: {
    id: 'excessStatus',
    call: 'GetExcessStatusReport',
    navKey: 'excessStatusReport',
    // Seed 000 §6 shows the entry when any club capacity is above 0 and names no flag (as quick exit).
    filters: ['terminalId', 'clientId', 'status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2], 'reports.excessState.'),
      placeholder: 'reports.allStates',
    },
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      ...client,
      { key: 'amountDue', type: 'money', wide: true },
      { key: 'inserted', type: 'money', wide: true },
      { key: 'excess', type: 'money', sortable: true, alert: true },
      { key: 'excessState', type: 'excessState', sortable: true },
      { key: 'collectedAt', type: 'datetime', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'excess', type: 'money' },
      { key: 'inBox', type: 'money' },
      { key: 'collected', type: 'money' },
    ],
    breakdowns: [{ key: 'byState', by: 'excessState', type: 'money' }],
    defaultSort: 'at',
  },
  cashStatus: {
    id: 'cashStatus',
    call: 'GetCashStatusReport',
    navKey: 'cashStatusReport',
    permission: 'roleCashReport',
    filters: ['terminalId'],
    columns: [
      { key: 'terminalId', type: 'int', field: true },
      { key: 'terminalName', type: 'text', sortable: 'terminal' },
      { key: 'coins', type: 'money', wide: true },
      { key: 'bills', type: 'money', wide: true },
      { key: 'cashBoxTotal', type: 'money', sortable: true },
      { key: 'excessAmount', type: 'money', wide: true },
      { key: 'excessCount', type: 'int', wide: true },
      { key: 'cashTotal', type: 'money', sortable: true },
      { key: 'insertedInPeriod', type: 'money', sortable: true, wide: true },
      { key: 'lastResetAt', type: 'datetime', wide: true },
    ],
    totals: [
      { key: 'terminals', type: 'int' },
      { key: 'coins', type: 'money' },
      { key: 'bills', type: 'money' },
      { key: 'cashBoxTotal', type: 'money' },
      { key: 'excessAmount', type: 'money' },
      { key: 'excessCount', type: 'int' },
      { key: 'cashTotal', type: 'money' },
      { key: 'insertedInPeriod', type: 'money' },
    ],
    defaultSort: 'terminal',
    defaultOrder: 'asc',
  },
  loadedLicenses: {
    id: 'loadedLicenses',
    call: 'GetLoadedLicensesReport',
    navKey: 'loadedLicensesReport',
    // Seed 000 §6 shows the entry to clubs with id < 7000 and names no flag (as licenses used).
    filters: ['status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2, 3], 'reports.licenseSource.'),
      placeholder: 'reports.allSources',
    },
    columns: [
      { key: 'id', type: 'text', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'source', type: 'licenseSource', sortable: true },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'price', type: 'money', wide: true },
      { key: 'amount', type: 'money', sortable: true },
      { key: 'reference', type: 'text', wide: true },
      { key: 'loadedBy', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amount', type: 'money' },
    ],
    breakdowns: [{ key: 'bySource', by: 'licenseSource', type: 'int' }],
    defaultSort: 'at',
  },
  saferPayments: {
    id: 'saferPayments',
    // Our call: seed 000 §2 gives the screen only (/reports/app-safer-payments), §7 no Report call.
    call: 'GetSaferPaymentsReport',
    navKey: 'saferPaymentsReport',
    // Seed 000 §6 shows the entry when isSaferPaymentsEnabled; card charges are payment data, so the
    // server (and the entry) also require the payments-report flag (docs/reports.md).
    permission: 'rolePaymentesReport',
    filters: ['clientId', 'status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2, 3, 4], 'reports.saferState.'),
      placeholder: 'reports.allStates',
    },
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'clientId', type: 'int', field: true },
      { key: 'clientNumber', type: 'int', wide: true },
      // Hidden on a phone: the amount and the state are what a phone shows.
      { key: 'clientName', type: 'text', sortable: 'client', wide: true },
      { key: 'amount', type: 'money', sortable: true },
      { key: 'brand', type: 'text', wide: true },
      { key: 'lastFour', type: 'text', wide: true },
      { key: 'saferState', type: 'saferState', sortable: true },
      { key: 'reconciledAt', type: 'datetime', sortable: true, wide: true },
      { key: 'reference', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'amount', type: 'money' },
      { key: 'awaiting', type: 'money' },
      { key: 'refunded', type: 'money' },
      { key: 'refundFailed', type: 'money' },
      { key: 'notCharged', type: 'money' },
    ],
    breakdowns: [{ key: 'byState', by: 'saferState', type: 'int' }],
    defaultSort: 'at',
  },
  addLicensesRequests: {
    id: 'addLicensesRequests',
    call: 'GetAddLicensesRequestReport',
    navKey: 'addLicensesRequestsReport',
    // The seed names the report (seed 000 §2 other screens, §7 call) without a rule: the flag of the
    // license requests it lists (GetAddLicensesRequestsSummary, docs/money.md).
    permission: 'roleViewGeneralSettings',
    filters: ['status'],
    statusFilter: {
      kind: 'many',
      choices: enumChoices([1, 2, 3, 4, 5], 'licenses.status.'),
      placeholder: 'report.allStatuses',
    },
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'at', type: 'datetime', sortable: true },
      { key: 'quantity', type: 'int', sortable: true },
      { key: 'price', type: 'money', wide: true },
      { key: 'amount', type: 'money', sortable: true, wide: true },
      { key: 'transferDate', type: 'date', sortable: true, wide: true },
      { key: 'reference', type: 'text', wide: true },
      { key: 'bank', type: 'text', wide: true },
      { key: 'status', type: 'licenseRequestStatus', sortable: true },
      { key: 'userName', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'quantity', type: 'int' },
      { key: 'amount', type: 'money' },
      { key: 'pending', type: 'int' },
      { key: 'loaded', type: 'int' },
    ],
    breakdowns: [{ key: 'byStatus', by: 'licenseRequestStatus', type: 'int' }],
    defaultSort: 'at',
  },
  /** Every attendance record of the period (by its first time), docs/attendance.md. */
  attendance: {
    id: 'attendance',
    call: 'GetAttendanceReport',
    navKey: 'attendanceReport',
    permission: 'roleViewAttendanceLogs',
    filters: ['clientId', 'terminalId'],
    columns: [
      { key: 'id', type: 'int', field: true },
      { key: 'entryAt', type: 'datetime', sortable: true },
      ...client,
      { key: 'entryTerminalName', type: 'text', wide: true },
      { key: 'exitAt', type: 'datetime', sortable: true },
      { key: 'exitTerminalName', type: 'text', wide: true },
      { key: 'minutes', type: 'minutes', sortable: true },
      { key: 'exitAutomatic', type: 'bool', wide: true },
      { key: 'edited', type: 'bool', wide: true },
      { key: 'comment', type: 'text', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'minutes', type: 'minutes' },
      { key: 'open', type: 'int' },
      { key: 'automatic', type: 'int' },
    ],
    defaultSort: 'entryAt',
  },
  /** Stamps: per employee per day, first in, last out, hours worked and breaks (docs/attendance.md). */
  stamps: {
    id: 'stamps',
    call: 'GetStampsReport',
    navKey: 'stampsReport',
    permission: 'roleViewAttendanceLogs',
    filters: ['clientId'],
    grouped: true,
    columns: [
      { key: 'clientId', type: 'int', field: true },
      { key: 'day', type: 'date', sortable: true },
      { key: 'clientNumber', type: 'int', wide: true },
      { key: 'clientName', type: 'text', sortable: 'client' },
      { key: 'firstIn', type: 'datetime' },
      { key: 'lastOut', type: 'datetime' },
      { key: 'shifts', type: 'int', wide: true },
      { key: 'minutes', type: 'minutes', sortable: true },
      { key: 'breakMinutes', type: 'minutes', wide: true },
    ],
    totals: [
      { key: 'count', type: 'int' },
      { key: 'minutes', type: 'minutes' },
      { key: 'breakMinutes', type: 'minutes' },
    ],
    defaultSort: 'day',
  },
  /**
   * Payroll: per employee for the period, regular hours and overtime at 125%
   * and 150% (Hours of Work and Rest Law 1951, the club's payroll settings),
   * night and Shabbat hours flagged, the position's hourly rate and the pay
   * in agorot (docs/attendance.md "Payroll").
   */
  payroll: {
    id: 'payroll',
    call: 'GetPayrollReport',
    navKey: 'payrollReport',
    permission: 'roleViewAttendanceLogs',
    filters: ['clientId'],
    grouped: true,
    columns: [
      { key: 'clientId', type: 'int', field: true },
      { key: 'clientName', type: 'text', sortable: 'client' },
      { key: 'clientNumber', type: 'int', wide: true },
      { key: 'positionName', type: 'text', wide: true },
      { key: 'days', type: 'int' },
      { key: 'minutes', type: 'minutes', sortable: true },
      { key: 'regularMinutes', type: 'minutes' },
      { key: 'overtime125Minutes', type: 'minutes' },
      { key: 'overtime150Minutes', type: 'minutes' },
      { key: 'nightMinutes', type: 'minutes', wide: true },
      { key: 'shabbatMinutes', type: 'minutes', wide: true },
      { key: 'hourlyRate', type: 'money' },
      { key: 'pay', type: 'money', sortable: true },
    ],
    totals: [
      { key: 'minutes', type: 'minutes' },
      { key: 'regularMinutes', type: 'minutes' },
      { key: 'overtime125Minutes', type: 'minutes' },
      { key: 'overtime150Minutes', type: 'minutes' },
      { key: 'pay', type: 'money' },
    ],
    defaultSort: 'client',
    defaultOrder: 'asc',
  },
  ...BOOKING_REPORTS,
  ...OPERATOR_REPORTS,
} as const satisfies Record<string, ReportMeta>;

export type ReportId = keyof typeof REPORTS;
