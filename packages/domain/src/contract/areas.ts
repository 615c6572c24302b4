/**
 * Every area's routes, one named export per area. `contract` (index.ts) is
 * this module as a namespace, so a bundle keeps only the areas it reads:
 * the sign-in screen does not carry every schema of the API.
 */
export { account } from './account.js';
export { appointments } from './appointments.js';
export { members } from './members.js';
export { attendance } from './attendance.js';
export { calendar } from './calendar.js';
export { clients } from './clients.js';
export { club, reference } from './club.js';
export { documents } from './documents.js';
export { dashboard } from './dashboard.js';
export { debts } from './debts.js';
export { employeePositions } from './employee-positions.js';
export { frontDesk } from './front-desk.js';
export { biometrics, bonus, terminalMessages } from './gate.js';
export { gateSafety } from './gate-safety.js';
export { occupancy } from './occupancy.js';
export { groups } from './groups.js';
export { feedbackCategories, globalMessages, incidents } from './messages.js';
export { notifications } from './notifications.js';
export { accounting, licenses, masav, paymentMethods, purchases, subscriptions } from './money.js';
export { operatorClubs, operatorLicenses, operatorMaintenance } from './operator.js';
export { operatorBilling } from './operator-billing.js';
export { privacy } from './privacy.js';
export { products } from './products.js';
export { schedules } from './schedules.js';
export { terminals } from './terminals.js';
export { users } from './users.js';
