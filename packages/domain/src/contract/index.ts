import { account } from './account.js';
import { attendance } from './attendance.js';
import { calendar } from './calendar.js';
import { clients } from './clients.js';
import { club, reference } from './club.js';
import { dashboard } from './dashboard.js';
import { debts } from './debts.js';
import { employeePositions } from './employee-positions.js';
import { biometrics, bonus, terminalMessages } from './gate.js';
import { groups } from './groups.js';
import { feedbackCategories, globalMessages, incidents } from './messages.js';
import { accounting, licenses, masav, paymentMethods, purchases, subscriptions } from './money.js';
import { operatorClubs, operatorLicenses, operatorMaintenance } from './operator.js';
import { operatorBilling } from './operator-billing.js';
import { products } from './products.js';
import { schedules } from './schedules.js';
import { terminals } from './terminals.js';
import { users } from './users.js';

export * from './route.js';
export { OperatorClubSettings, OperatorClubSettingsPatch } from './operator-billing.js';
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
  feedbackCategories,
  globalMessages,
  incidents,
  employeePositions,
  attendance,
  operatorMaintenance,
  operatorClubs,
  operatorLicenses,
  operatorBilling,
} as const;
