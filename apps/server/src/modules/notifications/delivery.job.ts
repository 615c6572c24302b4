import type { FastifyInstance } from 'fastify';
import { trackJob } from '../../lib/metrics.js';
import { deliverDue, type Transports } from './delivery.js';
import { smtpSender } from './email.js';
import { scanNotices } from './scan.js';
import { smsProviderOf } from './sms.js';

/** How often the scan for date-driven notices runs (ms): renewal coming, subscription ending, low balance. */
const SCAN_EVERY_MS = 60 * 60_000;

/** The install's transports from its settings (docs/notifications.md "Install settings"). */
export function transportsOf(app: FastifyInstance, documentPdf?: Transports['documentPdf']): Transports {
  const n = app.deps.config.notify;
  return {
    email: smtpSender(n),
    sms: smsProviderOf(n),
    smsSender: n.sms?.sender ?? '',
    publicUrl: n.publicUrl,
    documentPdf,
  };
}

/**
 * Starts the delivery worker (every NOTIFY_TICK_MS, default 5 s) and the hourly scan of date-driven
 * notices. Off under Vitest, where tests call `deliverDue` and `scanNotices` with their own clock.
 */
export function startNotifications(app: FastifyInstance, documentPdf?: Transports['documentPdf']): void {
  const tickMs = app.deps.config.notify.tickMs;
  if (process.env.VITEST || tickMs <= 0) return;
  const log = app.log.child({ job: 'notifications' });
  const transports = transportsOf(app, documentPdf);
  const db = app.deps.database.db;
  let sending = false;
  let scanning = false;
  const tick = () => {
    if (sending) return;
    sending = true;
    trackJob('notification-delivery', () => deliverDue(db, transports, new Date()))
      .catch((err: unknown) => log.error({ err }, 'notification delivery failed'))
      .finally(() => (sending = false));
  };
  const scan = () => {
    if (scanning) return;
    scanning = true;
    trackJob('notification-scan', () => scanNotices(db, new Date()))
      .catch((err: unknown) => log.error({ err }, 'notification scan failed'))
      .finally(() => (scanning = false));
  };
  const every = setInterval(tick, tickMs);
  const hourly = setInterval(scan, SCAN_EVERY_MS);
  const first = setTimeout(scan, 30_000);
  every.unref();
  hourly.unref();
  first.unref();
  app.addHook('onClose', async () => {
    clearInterval(every);
    clearInterval(hourly);
    clearTimeout(first);
  });
}
