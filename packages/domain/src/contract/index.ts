import { account } from './account.js';
import { attendance } from './attendance.js';
import { calendar } from './calendar.js';
import { clients } from './clients.js';
import { club, reference } from './club.js';
import { dashboard } from './dashboard.js';
import { debts } from './debts.js';
import { documents } from './documents.js';
import { employeePositions } from './employee-positions.js';
import { biometrics, bonus, terminalMessages } from './gate.js';
import { groups } from './groups.js';
import { feedbackCategories, globalMessages, incidents } from './messages.js';
import { accounting, licenses, masav, paymentMethods, purchases, subscriptions } from './money.js';
import { operatorClubs, operatorLicenses, operatorMaintenance } from './operator.js';
import { products } from './products.js';
import { schedules } from './schedules.js';
import { terminals } from './terminals.js';
import { users } from './users.js';

export * from './route.js';
export { ScheduleListQuery } from './schedules.js';
export { ClubWithUnreadMessages } from './messages.js';
export { LoadCashInput, TerminalListQuery } from './terminals.js';
export {
  LicenseRequestListQuery,
  LicenseRequestStatusPatch,
  MasavCreateQuery,
  ReconcileResult,
  SaferPayment,
  SumitSettingsView,
} from './money.js';

/**
 * Every HTTP route of the API, one typed entry each, by area: the server
 * registers from it (apps/server/src/lib/contract-route.ts), the console calls
 * it (`api.call(contract.groups.get, { params: { id } })`).
 */
export const contract = {
  account,
  club,
  reference,
  calendar,
  clients,
  groups,
  schedules,
  terminals,
  products,
  users,
  dashboard,
  debts,
  bonus,
  biometrics,
  terminalMessages,
  purchases,
  paymentMethods,
  subscriptions,
  masav,
  licenses,
  accounting,
  documents,
  feedbackCategories,
  globalMessages,
  incidents,
  employeePositions,
  attendance,
  operatorMaintenance,
  operatorClubs,
  operatorLicenses,
} as const;
