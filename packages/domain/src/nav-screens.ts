import type { RouteAccess } from './contract/route.js';
import type { NAV_RULES } from './navigation.js';

/**
 * The access of the calls a navigation entry's screen makes when it opens
 * (the contract entries its data hooks call; `nav-screens.test.ts` checks
 * each against the contract entry it names): a user who may not make one of
 * them would open a screen that answers 403, so the entry is not shown
 * (access.ts `can({open})`; issue 35: the schedules screen was offered to
 * every user of a regular club and refused all but those who may view
 * groups). Written as plain values, not read from the contract, so that the
 * sign-in page, which asks `can()`, does not load every schema (its budget,
 * e2e/sign-in-load.spec.ts). Reports need no entry: their route asks for the
 * report's permission and its menu rule itself (reports framework).
 *
 * A call that only some of a screen's users may make (the group list beside
 * the clients) is not listed: the screen asks `can({route})` and leaves that
 * part out (docs/accessibility.md "Menus and 403").
 */
export const NAV_SCREEN_DATA: Partial<Record<keyof typeof NAV_RULES, readonly RouteAccess[]>> = {
  dashboard: [{ permission: 'roleViewDashboard' }], // dashboard.monthlyEntrances
  gateSafety: [{}], // gateSafety.state
  occupancy: [{}, {}], // occupancy.inside, occupancy.areas
  bookings: [{ permission: 'roleManageBookings' }, { permission: 'roleManageBookings' }], // appointments.slots, appointments.resources
  bookingEvening: [{ permission: 'roleManageBookings' }], // appointments.evening
  clients: [{ permission: 'roleViewClientsList' }], // clients.list
  groups: [{ permission: 'roleViewClientGroupList' }], // groups.list
  products: [{}], // products.list
  terminals: [{}], // terminals.list
  calendar: [{ permission: 'roleViewCalendar' }], // calendar.events
  users: [{ permission: 'roleIsAdmin' }], // users.list
  schedules: [{ permission: 'roleViewClientGroupList' }], // schedules.general
  terminalMessages: [{ permission: 'roleViewTerminalMessages' }], // terminalMessages.list
  attendance: [{ permission: 'roleViewAttendanceLogs', nav: 'attendance' }], // attendance.list, attendance.employees
  employeePositions: [{ permission: 'roleViewAttendanceLogs' }], // employeePositions.list
  feedbackCategories: [{ nav: 'feedbackCategories' }], // feedbackCategories.list
  incidents: [{ nav: 'incidents' }], // incidents.list
  notifications: [{ nav: 'notifications' }], // notifications.outbox
  operatorClubs: [{ operator: true }], // operatorClubs.list
  operatorLicenses: [{ operator: true }], // operatorLicenses.requests
  operatorCharges: [{ operator: true }], // operatorBilling.charges
  operatorTerminals: [{ operator: true }], // operatorBilling.fleet
};

/** The contract entries behind each list above, by `area.name` (for the test that keeps them equal). */
export const NAV_SCREEN_ROUTES: Partial<Record<keyof typeof NAV_RULES, readonly string[]>> = {
  dashboard: ['dashboard.monthlyEntrances'],
  gateSafety: ['gateSafety.state'],
  occupancy: ['occupancy.inside', 'occupancy.areas'],
  bookings: ['appointments.slots', 'appointments.resources'],
  bookingEvening: ['appointments.evening'],
  clients: ['clients.list'],
  groups: ['groups.list'],
  products: ['products.list'],
  terminals: ['terminals.list'],
  calendar: ['calendar.events'],
  users: ['users.list'],
  schedules: ['schedules.general'],
  terminalMessages: ['terminalMessages.list'],
  attendance: ['attendance.list', 'attendance.employees'],
  employeePositions: ['employeePositions.list'],
  feedbackCategories: ['feedbackCategories.list'],
  incidents: ['incidents.list'],
  notifications: ['notifications.outbox'],
  operatorClubs: ['operatorClubs.list'],
  operatorLicenses: ['operatorLicenses.requests'],
  operatorCharges: ['operatorBilling.charges'],
  operatorTerminals: ['operatorBilling.fleet'],
};
