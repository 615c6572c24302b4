import * as contract from './areas.js';

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
export { contract };
