import type { FastifyInstance } from 'fastify';
import { trackJob } from '../../lib/metrics.js';
import { deliverDue, publicSender } from './webhook.service.js';

/** How often due deliveries are sent (ms); INCIDENT_WEBHOOK_TICK_MS=0 turns the sender off. */
const EVERY_MS = Number(process.env.INCIDENT_WEBHOOK_TICK_MS ?? 5_000);

/**
 * Starts the sender of incident deliveries (docs/messages.md "Webhook"): every
 * few seconds the due ones are sent. Off under Vitest, where tests call
 * `deliverDue` themselves with their own clock and sender.
 */
export function startIncidentDeliveries(app: FastifyInstance): void {
  if (process.env.VITEST || EVERY_MS <= 0) return;
  let running = false;
  const log = app.log.child({ job: 'incident-deliveries' });
  const tick = () => {
    if (running) return;
    running = true;
    trackJob('incident-deliveries', () =>
      deliverDue(app.deps.database.db, new Date(), publicSender({ allow: app.deps.config.webhookAllow ?? [] })),
    )
      .catch((err: unknown) => log.error({ err }, 'incident deliveries failed'))
      .finally(() => (running = false));
  };
  const every = setInterval(tick, EVERY_MS);
  every.unref();
  app.addHook('onClose', async () => clearInterval(every));
}
