import { KALA_CLUB_FROM, UserLevel } from './enums.js';
import type { Permissions } from './permissions.js';

/**
 * Navigation visibility: seed 000 §6, row by row. One pure function that the
 * console renders and the tests check against the seed's table.
 */

/** Side navigation sections; 'operator' is the service operator's own (docs/operator.md). */
export type NavSection = 'management' | 'reports' | 'operator';
export interface NavEntry {
  key: string;
  route: string;
  section: NavSection;
}

/** The routes of seed 000 §2, in the order of the side navigation. */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { key: 'dashboard', route: '/dashboard', section: 'management' },
  // The front desk (issue 35, docs/front-desk.md): not in seed 000 §2; our path.
  { key: 'frontDesk', route: '/front-desk', section: 'management' },
  // The gate in an emergency and the occupancy (issue 36, docs/gate-safety.md): our path.
  { key: 'gateSafety', route: '/management/gate-safety', section: 'management' },
  { key: 'occupancy', route: '/management/occupancy', section: 'management' },
  // Immersion appointments (issue 38, docs/appointments.md "The console"): our paths.
  { key: 'bookings', route: '/management/bookings', section: 'management' },
  { key: 'bookingEvening', route: '/management/booking-evening', section: 'management' },
  { key: 'clients', route: '/management/clients', section: 'management' },
  { key: 'groups', route: '/management/app-groups-list', section: 'management' },
  { key: 'products', route: '/management/app-product-list', section: 'management' },
  { key: 'terminals', route: '/management/app-terminals-list', section: 'management' },
  { key: 'settings', route: '/management/app-settings', section: 'management' },
  // Not in seed 000 §2's route table (seed 001 §1: the calendar's screens are not shown); issue 14 §3, our path.
  { key: 'calendar', route: '/management/calendar', section: 'management' },
  { key: 'users', route: '/management/app-users-list', section: 'management' },
  { key: 'schedules', route: '/management/app-schedules-list', section: 'management' },
  { key: 'terminalMessages', route: '/management/terminal-messages', section: 'management' },
  { key: 'attendance', route: '/management/attendance', section: 'management' },
  { key: 'employeePositions', route: '/management/employee-position-list', section: 'management' },
  { key: 'feedbackCategories', route: '/management/feedback-category-list', section: 'management' },
  // Incident reports (issue 16): not in seed 000 §2's table; our path, the same rule as the categories.
  { key: 'incidents', route: '/management/incidents', section: 'management' },
  // Notices to members and their outbox (issue 37, docs/notifications.md): our path.
  { key: 'notifications', route: '/management/notifications', section: 'management' },
  { key: 'paymentReport', route: '/reports/app-paymentReport', section: 'reports' },
  { key: 'entranceReport', route: '/reports/app-entranceReport', section: 'reports' },
  { key: 'activitiesReport', route: '/reports/app-entrance-payment-report', section: 'reports' },
  { key: 'purchasesReport', route: '/reports/app-purchases-report', section: 'reports' },
  { key: 'payoutErrorReport', route: '/reports/payout-error-purchases-report', section: 'reports' },
  { key: 'excessStatusReport', route: '/reports/excess-status-report', section: 'reports' },
  { key: 'cashStatusReport', route: '/reports/cash-status-report', section: 'reports' },
  { key: 'financialReport', route: '/reports/app-financial-report', section: 'reports' },
  { key: 'productsReport', route: '/reports/app-products-report', section: 'reports' },
  { key: 'productMatrixReport', route: '/reports/app-product-matrix-report', section: 'reports' },
  // Not in seed 000 §2's route table (the report exists: seed 000 §7 GetProductSummaryReport); our path.
  { key: 'productSummaryReport', route: '/reports/product-summary-report', section: 'reports' },
  { key: 'saferPaymentsReport', route: '/reports/app-safer-payments', section: 'reports' },
  { key: 'cashManagementReport', route: '/reports/app-resetCashLevels-report', section: 'reports' },
  { key: 'cashTransactionsReport', route: '/reports/app-cashTransactions-report', section: 'reports' },
  { key: 'debtsReport', route: '/reports/debts-report', section: 'reports' },
  { key: 'autoRenewalReport', route: '/reports/automatic-renewal-history-report', section: 'reports' },
  { key: 'licensesUsedReport', route: '/reports/licenses-used-report', section: 'reports' },
  { key: 'loadedLicensesReport', route: '/reports/loaded-licenses-report', section: 'reports' },
  // Seed 000 §2 names the add-licenses-request report with its path not shown; our path.
  { key: 'addLicensesRequestsReport', route: '/reports/add-licenses-requests-report', section: 'reports' },
  { key: 'quickExitReport', route: '/reports/quick-exit-report', section: 'reports' },
  // Seed 000 §2 names the manager activity report with its path not shown; our path.
  { key: 'managerActivityReport', route: '/reports/manager-activity-report', section: 'reports' },
  // Issue 39 (docs/privacy.md "Who looked"): the access log, for the club's security officer.
  { key: 'dataAccessReport', route: '/reports/data-access-report', section: 'reports' },
  // Seed 000 §2 names the attendance, stamps and payroll reports with their paths not shown; our paths.
  { key: 'attendanceReport', route: '/reports/attendance-report', section: 'reports' },
  { key: 'stampsReport', route: '/reports/stamps-report', section: 'reports' },
  { key: 'payrollReport', route: '/reports/payroll-report', section: 'reports' },
  // Issue 38 (docs/appointments.md "Reports"): the booking reports; our paths.
  { key: 'bookingsReport', route: '/reports/bookings-report', section: 'reports' },
  { key: 'noShowsReport', route: '/reports/no-shows-report', section: 'reports' },
  { key: 'roomUseReport', route: '/reports/room-use-report', section: 'reports' },
  { key: 'waitlistReport', route: '/reports/waitlist-report', section: 'reports' },
  // The service operator's area (issue 17; docs/operator.md): user level SuperUser only.
  { key: 'operatorClubs', route: '/operator/clubs', section: 'operator' },
  { key: 'operatorLicenses', route: '/operator/license-requests', section: 'operator' },
  { key: 'operatorCharges', route: '/operator/club-charges', section: 'operator' },
  { key: 'operatorTerminals', route: '/operator/terminals', section: 'operator' },
  // The operator's cross-club reports (reports.ts OPERATOR_REPORTS).
  { key: 'clubProductsReport', route: '/operator/reports/club-products', section: 'operator' },
  { key: 'clubLicensesReport', route: '/operator/reports/club-licenses', section: 'operator' },
  { key: 'clubMonthlyReport', route: '/operator/reports/club-monthly', section: 'operator' },
  { key: 'clubLowLicensesReport', route: '/operator/reports/low-licenses', section: 'operator' },
];

/** What the visibility rules read: the user's flags, the club's id, settings and capacities. */
export interface NavContext {
  permissions: Partial<Permissions>;
  externalClubId: number;
  settings: {
    isKalaSubscriptionEnabled: boolean;
    isEmployeeAttendanceEnabled: boolean;
    isIncidentReportEnabled: boolean;
    isUpsellEnabled: boolean;
    isSaferPaymentsEnabled: boolean;
    isQuickExitEnabled: boolean;
  };
  /** Club capacities (GET /Club/GetCapacities): "any club capacity above 0". */
  capacities: readonly number[];
  /** User level (seed 000 §3): the operator's entries need SuperUser 1. */
  level?: number;
}

type Rule = (c: NavContext) => boolean;
const flag =
  (f: keyof Permissions): Rule =>
  (c) =>
    c.permissions[f] === true;
const regular: Rule = (c) => c.externalClubId < KALA_CLUB_FROM;
const kalaOk: Rule = (c) => regular(c) || c.settings.isKalaSubscriptionEnabled;

/** Visibility rule of each entry, as in the table of seed 000 §6. */
export const NAV_RULES: Record<string, Rule> = {
  dashboard: flag('roleViewDashboard'),
  // Not in the seed's table (issue 35): finding clients, and admitting or selling to them.
  frontDesk: (c) =>
    flag('roleViewClientsList')(c) && (flag('roleCheckInClients')(c) || flag('roleManageClientMoney')(c)),
  // Not in the seed's table (issue 36): open-all or lockdown, with their own permissions.
  gateSafety: (c) => flag('roleEmergencyOpenAll')(c) || flag('roleLockdown')(c),
  // Not in the seed's table (issue 36): who is inside now, for every user of the club (names by permission).
  occupancy: () => true,
  // Not in the seed (issue 38): the permission every booking route requires (docs/appointments.md "Privacy").
  bookings: flag('roleManageBookings'),
  bookingEvening: flag('roleManageBookings'),
  clients: flag('roleViewClientsList'),
  groups: (c) => flag('roleViewClientGroupList')(c) && kalaOk(c),
  terminals: () => true,
  settings: flag('roleViewGeneralSettings'),
  users: flag('roleIsAdmin'),
  schedules: regular,
  terminalMessages: (c) => flag('roleViewTerminalMessages')(c) && regular(c),
  attendance: (c) => c.settings.isEmployeeAttendanceEnabled && flag('roleViewAttendanceLogs')(c),
  employeePositions: (c) => c.settings.isEmployeeAttendanceEnabled && flag('roleViewAttendanceLogs')(c),
  feedbackCategories: (c) => c.settings.isIncidentReportEnabled,
  incidents: (c) => c.settings.isIncidentReportEnabled,
  // Not in the seed (issue 37): the club's admins (and the operator, whose users are admins).
  notifications: flag('roleIsAdmin'),
  products: () => true,
  paymentReport: flag('rolePaymentesReport'),
  entranceReport: (c) => flag('roleEntrancesReport')(c) && kalaOk(c),
  activitiesReport: (c) => flag('roleEntrancesPaymentsReport')(c) && regular(c),
  purchasesReport: flag('rolePurchasesReport'),
  excessStatusReport: (c) => c.capacities.some((x) => x > 0),
  financialReport: flag('roleFinanicalReport'),
  productsReport: flag('roleProductsReport'),
  productMatrixReport: (c) => flag('roleProductsReport')(c) && c.settings.isUpsellEnabled,
  // Seed 000 §6: isSaferPaymentsEnabled; plus the flag the report requires (card charges are payment data).
  saferPaymentsReport: (c) => c.settings.isSaferPaymentsEnabled && flag('rolePaymentesReport')(c),
  cashManagementReport: flag('roleResetCashLevelsReport'),
  cashTransactionsReport: flag('roleCashReport'),
  debtsReport: flag('roleDebtsReport'),
  autoRenewalReport: (c) => flag('roleAutoOperationsReport')(c) && regular(c),
  licensesUsedReport: regular,
  loadedLicensesReport: regular,
  // Not in the seed's table: the regular class (licenses) and the flag the report requires (our rule).
  addLicensesRequestsReport: (c) => regular(c) && flag('roleViewGeneralSettings')(c),
  quickExitReport: (c) => c.settings.isQuickExitEnabled,
  // The seed shows no visibility rule for these two; we show them to users who
  // may read cash reports, since they reconcile terminal cash.
  payoutErrorReport: flag('roleCashReport'),
  cashStatusReport: flag('roleCashReport'),
  // Not in the seed's table: the permission the report itself requires (seed 000 §7 call, our rule).
  productSummaryReport: flag('roleProductsReport'),
  managerActivityReport: flag('roleIsAdmin'),
  dataAccessReport: flag('roleSecurityOfficer'),
  // Attendance reports: the attendance row of seed 000 §6 (seed 001 §6 "view attendance, including downloads").
  attendanceReport: (c) => c.settings.isEmployeeAttendanceEnabled && flag('roleViewAttendanceLogs')(c),
  stampsReport: (c) => c.settings.isEmployeeAttendanceEnabled && flag('roleViewAttendanceLogs')(c),
  payrollReport: (c) => c.settings.isEmployeeAttendanceEnabled && flag('roleViewAttendanceLogs')(c),
  // Not in the seed (issue 38): bookings reveal intimate information — the booking permission only.
  bookingsReport: flag('roleManageBookings'),
  noShowsReport: flag('roleManageBookings'),
  roomUseReport: flag('roleManageBookings'),
  waitlistReport: flag('roleManageBookings'),
  // Not in the seed's table (issue 14 §3): its own flag, which the calendar API also requires (docs/calendar.md "Access").
  calendar: flag('roleViewCalendar'),
  // Not in the seed: the operator's area (issue 17), for user level SuperUser only.
  operatorClubs: (c) => c.level === UserLevel.SuperUser,
  operatorLicenses: (c) => c.level === UserLevel.SuperUser,
  operatorCharges: (c) => c.level === UserLevel.SuperUser,
  operatorTerminals: (c) => c.level === UserLevel.SuperUser,
  clubProductsReport: (c) => c.level === UserLevel.SuperUser,
  clubLicensesReport: (c) => c.level === UserLevel.SuperUser,
  clubMonthlyReport: (c) => c.level === UserLevel.SuperUser,
  clubLowLicensesReport: (c) => c.level === UserLevel.SuperUser,
};

/** The entries of seed 000 §2 that this user sees, in navigation order. */
export function visibleNavigation(ctx: NavContext): NavEntry[] {
  return NAV_ENTRIES.filter((e) => NAV_RULES[e.key]?.(ctx) === true);
}

/** Whether one route is visible (used by the console's route guard). */
export function isRouteVisible(ctx: NavContext, route: string): boolean {
  return visibleNavigation(ctx).some((e) => e.route === route);
}
