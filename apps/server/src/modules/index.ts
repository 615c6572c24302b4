import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account/account.routes.js';
import { accountingRoutes } from './accounting/accounting.routes.js';
import { attendanceRoutes } from './attendance/attendance.routes.js';
import { biometricRoutes } from './biometrics/biometrics.routes.js';
import { bonusRoutes } from './bonus/bonus.routes.js';
import { calendarRoutes } from './calendar/calendar.routes.js';
import { clientRoutes } from './clients/clients.routes.js';
import { clubRoutes } from './club/club.routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { debtRoutes } from './debts/debts.routes.js';
import { documentRoutes } from './documents/documents.routes.js';
import { feedbackCategoryRoutes } from './feedback-categories/feedback-categories.routes.js';
import { globalMessageRoutes } from './global-messages/global-messages.routes.js';
import { incidentRoutes } from './incidents/incidents.routes.js';
import { employeePositionRoutes } from './employee-positions/employee-positions.routes.js';
import { groupRoutes } from './groups/groups.routes.js';
import { licenseRoutes } from './licenses/licenses.routes.js';
import { operatorRoutes } from './operator/operator.routes.js';
import { masavRoutes } from './masav/masav.routes.js';
import { paymentMethodRoutes } from './payment-methods/payment-methods.routes.js';
import { productRoutes } from './products/products.routes.js';
import { purchaseRoutes } from './purchases/purchases.routes.js';
import { referenceRoutes } from './reference/reference.routes.js';
import { reportsRoutes } from './reports/reports.routes.js';
import { scheduleRoutes } from './schedules/schedules.routes.js';
import { subscriptionRoutes } from './subscriptions/subscriptions.routes.js';
import { terminalMessageRoutes } from './terminal-messages/terminal-messages.routes.js';
import { terminalRoutes } from './terminals/terminals.routes.js';
import { userRoutes } from './users/users.routes.js';
import { gatePushRoutes } from '../realtime/gate-push.js';
import { liveRoutes } from '../realtime/live.js';
import { terminalLinkRoutes } from '../realtime/terminal-link.js';

/**
 * Registers every API area in one place (one folder per area, STYLE point 2):
 * management (account, club, clients, groups, schedules, terminals, products,
 * users, reference), gate (biometrics, bonus, terminal messages), money
 * (purchases, payment methods, debts, subscriptions, masav, licenses,
 * accounting), reports and dashboard, and the WebSocket links.
 */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes);
  await app.register(clubRoutes);
  await app.register(clientRoutes);
  await app.register(groupRoutes);
  await app.register(scheduleRoutes);
  await app.register(terminalRoutes);
  await app.register(terminalLinkRoutes);
  await app.register(liveRoutes);
  await app.register(reportsRoutes);
  await app.register(dashboardRoutes);
  // Gate
  await app.register(biometricRoutes);
  await app.register(bonusRoutes);
  await app.register(terminalMessageRoutes);
  await app.register(gatePushRoutes);
  // Money
  await app.register(purchaseRoutes);
  await app.register(paymentMethodRoutes);
  await app.register(debtRoutes);
  await app.register(subscriptionRoutes);
  await app.register(masavRoutes);
  await app.register(licenseRoutes);
  await app.register(accountingRoutes);
  await app.register(documentRoutes);
  // Management
  await app.register(productRoutes);
  await app.register(userRoutes);
  // Staff (docs/attendance.md)
  await app.register(employeePositionRoutes);
  await app.register(attendanceRoutes);
  await app.register(referenceRoutes);
  // Messages and incidents (docs/messages.md)
  await app.register(feedbackCategoryRoutes);
  await app.register(globalMessageRoutes);
  await app.register(incidentRoutes);
  await app.register(calendarRoutes);
  // The operator's maintenance (docs/operator.md)
  await app.register(operatorRoutes);
}
