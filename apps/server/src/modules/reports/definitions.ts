import type { ReportId } from '@venue/domain';
import type { ReportDefinition } from './framework.js';
import { activitiesReport } from './defs/activities.js';
import { addLicensesRequestsReport } from './defs/add-licenses-requests.js';
import { attendanceReport } from './defs/attendance.js';
import { bookingsReport } from './defs/bookings.js';
import { autoRenewalReport } from './defs/auto-renewal.js';
import { cashManagementReport } from './defs/cash-management.js';
import { cashStatusReport } from './defs/cash-status.js';
import { cashTransactionsReport } from './defs/cash-transactions.js';
import { clientEntrancesReport } from './defs/client-entrances.js';
import { dataAccessReport } from './defs/data-access.js';
import { debtsReport } from './defs/debts.js';
import { entrancesReport } from './defs/entrances.js';
import { excessStatusReport } from './defs/excess-status.js';
import { financialReport } from './defs/financial.js';
import { licensesUsedReport } from './defs/licenses-used.js';
import { loadedLicensesReport } from './defs/loaded-licenses.js';
import { managerActivityReport } from './defs/manager-activity.js';
import { noShowsReport } from './defs/no-shows.js';
import { paymentsReport } from './defs/payments.js';
import { payrollReport } from './defs/payroll.js';
import { payoutErrorsReport } from './defs/payout-errors.js';
import { productMatrixReport } from './defs/product-matrix.js';
import { productSummaryReport } from './defs/product-summary.js';
import { productsReport } from './defs/products.js';
import { purchasesReport } from './defs/purchases.js';
import { quickExitsReport } from './defs/quick-exits.js';
import { roomUseReport } from './defs/room-use.js';
import { saferPaymentsReport } from './defs/safer-payments.js';
import { stampsReport } from './defs/stamps.js';
import { waitlistReport } from './defs/waitlist.js';
import {
  clubLicensesReport,
  clubLowLicensesReport,
  clubMonthlyReport,
  clubProductsReport,
} from './defs/operator-reports.js';

/**
 * The catalogue of report definitions: every report of the domain catalogue
 * (packages/domain reports.ts `REPORTS`, seed 000 §7 "Reports") mapped to its
 * SQL definition, one file per report in `defs/` (docs/reports.md "How to add
 * a report"). The mapped type makes a report of `REPORTS` without a
 * definition here, a definition of an id `REPORTS` does not list, or a
 * definition whose `meta` is another report's entry a compile error.
 * reports.routes.ts registers each one as `POST /api/Report/<call>` and
 * `POST /api/Report/<call>/Export`.
 */
export const REPORT_DEFINITION_BY_ID: { readonly [K in ReportId]: ReportDefinition<K> } = {
  entrances: entrancesReport,
  payments: paymentsReport,
  purchases: purchasesReport,
  debts: debtsReport,
  financial: financialReport,
  cashTransactions: cashTransactionsReport,
  cashManagement: cashManagementReport,
  autoRenewal: autoRenewalReport,
  quickExits: quickExitsReport,
  activities: activitiesReport,
  clientEntrances: clientEntrancesReport,
  managerActivity: managerActivityReport,
  dataAccess: dataAccessReport,
  products: productsReport,
  payoutErrors: payoutErrorsReport,
  licensesUsed: licensesUsedReport,
  productSummary: productSummaryReport,
  productMatrix: productMatrixReport,
  excessStatus: excessStatusReport,
  cashStatus: cashStatusReport,
  loadedLicenses: loadedLicensesReport,
  saferPayments: saferPaymentsReport,
  addLicensesRequests: addLicensesRequestsReport,
  attendance: attendanceReport,
  stamps: stampsReport,
  payroll: payrollReport,
  bookings: bookingsReport,
  noShows: noShowsReport,
  roomUse: roomUseReport,
  waitlist: waitlistReport,
  clubProducts: clubProductsReport,
  clubLicenses: clubLicensesReport,
  clubMonthly: clubMonthlyReport,
  clubLowLicenses: clubLowLicensesReport,
};

/** Every report definition, in the catalogue's order (the order its routes are registered in). */
export const REPORT_DEFINITIONS: readonly ReportDefinition[] = Object.values(REPORT_DEFINITION_BY_ID);

export {
  entrancesReport,
  paymentsReport,
  purchasesReport,
  debtsReport,
  financialReport,
  cashTransactionsReport,
  cashManagementReport,
  autoRenewalReport,
  quickExitsReport,
  activitiesReport,
  clientEntrancesReport,
  managerActivityReport,
  dataAccessReport,
  productsReport,
  payoutErrorsReport,
  licensesUsedReport,
  productSummaryReport,
  productMatrixReport,
  excessStatusReport,
  cashStatusReport,
  loadedLicensesReport,
  saferPaymentsReport,
  addLicensesRequestsReport,
};
