import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './modules/account/account.routes.js';
import { memberRoutes } from './modules/members/members.routes.js';
import { accountingRoutes } from './modules/accounting/accounting.routes.js';
import { attendanceRoutes } from './modules/attendance/attendance.routes.js';
import { biometricRoutes } from './modules/biometrics/biometrics.routes.js';
import { bonusRoutes } from './modules/bonus/bonus.routes.js';
import { calendarRoutes } from './modules/calendar/calendar.routes.js';
import { clientRoutes } from './modules/clients/clients.routes.js';
import { clubRoutes } from './modules/club/club.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { debtRoutes } from './modules/debts/debts.routes.js';
import { documentRoutes } from './modules/documents/documents.routes.js';
import { documentAttachment } from './modules/documents/document-attachment.js';
import { frontDeskRoutes } from './modules/front-desk/front-desk.routes.js';
import { gateSafetyRoutes } from './modules/gate-safety/gate-safety.routes.js';
import { occupancyRoutes } from './modules/occupancy/occupancy.routes.js';
import { feedbackCategoryRoutes } from './modules/feedback-categories/feedback-categories.routes.js';
import { globalMessageRoutes } from './modules/global-messages/global-messages.routes.js';
import { incidentRoutes } from './modules/incidents/incidents.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { appointmentRoutes } from './modules/appointments/appointments.routes.js';
import { employeePositionRoutes } from './modules/employee-positions/employee-positions.routes.js';
import { groupRoutes } from './modules/groups/groups.routes.js';
import { licenseRoutes } from './modules/licenses/licenses.routes.js';
import { operatorRoutes } from './modules/operator/operator.routes.js';
import { masavRoutes } from './modules/masav/masav.routes.js';
import { paymentMethodRoutes } from './modules/payment-methods/payment-methods.routes.js';
import { privacyRoutes } from './modules/privacy/privacy.routes.js';
import { productRoutes } from './modules/products/products.routes.js';
import { purchaseRoutes } from './modules/purchases/purchases.routes.js';
import { referenceRoutes } from './modules/reference/reference.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { scheduleRoutes } from './modules/schedules/schedules.routes.js';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { terminalMessageRoutes } from './modules/terminal-messages/terminal-messages.routes.js';
import { terminalRoutes } from './modules/terminals/terminals.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { gatePushRoutes } from './realtime/gate-push.js';
import { liveRoutes } from './realtime/live.js';
import { terminalLinkRoutes } from './realtime/terminal-link.js';

/**
 * Registers every API area in one place (one folder per area, STYLE point 2):
 * management (account, club, clients, groups, schedules, terminals, products,
 * users, reference), gate (biometrics, bonus, terminal messages), money
 * (purchases, payment methods, debts, subscriptions, masav, licenses,
 * accounting), reports and dashboard, and the WebSocket links.
 */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes);
  // The member app (docs/members.md).
  await app.register(memberRoutes);
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
  // The gate in an emergency (docs/gate-safety.md)
  await app.register(gateSafetyRoutes);
  await app.register(occupancyRoutes);
  // Money
  await app.register(purchaseRoutes);
  await app.register(paymentMethodRoutes);
  await app.register(debtRoutes);
  await app.register(subscriptionRoutes);
  await app.register(masavRoutes);
  await app.register(licenseRoutes);
  await app.register(accountingRoutes);
  await app.register(documentRoutes);
  await app.register(notificationRoutes, { documentPdf: documentAttachment });
  // The front desk (docs/front-desk.md)
  await app.register(frontDeskRoutes);
  // Immersion appointments (docs/appointments.md)
  await app.register(appointmentRoutes);
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
  // Privacy: retention, a client's copy and erasure, who looked (docs/privacy.md)
  await app.register(privacyRoutes);
  // The operator's maintenance (docs/operator.md)
  await app.register(operatorRoutes);
}
