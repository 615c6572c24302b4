import type { RouteAccess } from './contract/route.js';
import {
  attendance,
  calendar,
  clients,
  dashboard,
  employeePositions,
  feedbackCategories,
  groups,
  incidents,
  operatorBilling,
  operatorClubs,
  operatorLicenses,
  products,
  schedules,
  terminalMessages,
  terminals,
  users,
} from './contract/areas.js';
import type { NAV_RULES } from './navigation.js';

/**
 * The calls a navigation entry's screen makes when it opens, by their
 * declared access (the contract entries the screen's data hooks call): a
 * user who may not make one of them would open a screen that answers 403, so
 * the entry is not shown (access.ts `can({open})`; issue 35: the schedules
 * screen was offered to every user of a regular club and refused all but
 * those who may view groups). Reports need no entry here: their route asks
 * for the report's permission and its menu rule itself (reports framework).
 *
 * A screen's call that only some of its users may make (the group list
 * beside the clients) is not listed: the screen asks `can({route})` and
 * leaves that part out (docs/accessibility.md "Menus and 403").
 */
export const NAV_SCREEN_DATA: Partial<Record<keyof typeof NAV_RULES, readonly RouteAccess[]>> = {
  dashboard: [dashboard.monthlyEntrances.access],
  clients: [clients.list.access],
  groups: [groups.list.access],
  products: [products.list.access],
  terminals: [terminals.list.access],
  calendar: [calendar.events.access],
  users: [users.list.access],
  schedules: [schedules.general.access],
  terminalMessages: [terminalMessages.list.access],
  attendance: [attendance.list.access, attendance.employees.access],
  employeePositions: [employeePositions.list.access],
  feedbackCategories: [feedbackCategories.list.access],
  incidents: [incidents.list.access],
  operatorClubs: [operatorClubs.list.access],
  operatorLicenses: [operatorLicenses.requests.access],
  operatorCharges: [operatorBilling.charges.access],
  operatorTerminals: [operatorBilling.fleet.access],
};
