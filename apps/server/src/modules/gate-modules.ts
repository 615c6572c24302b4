import type { FastifyInstance } from 'fastify';
import { biometricRoutes } from './biometrics/biometrics.routes.js';
import { bonusRoutes } from './bonus/bonus.routes.js';
import { terminalMessageRoutes } from './terminal-messages/terminal-messages.routes.js';
import { gatePushRoutes } from '../realtime/gate-push.js';

/** The gate decisions' API areas (issue 3, docs/api-gate.md): biometrics, bonus entrances, terminal messages, pushes. */
export async function gateModules(app: FastifyInstance): Promise<void> {
  await app.register(biometricRoutes);
  await app.register(bonusRoutes);
  await app.register(terminalMessageRoutes);
  await app.register(gatePushRoutes);
}
