import type { ServerError, ServerPurchaseResult, TerminalPurchase } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { kioskPurchase } from '../../modules/gate/kiosk.service.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import type { EventBus } from '../../lib/event-bus.js';
import type { GateLink, Log } from './gate.js';

/**
 * `purchase` → `purchase-result` (docs/terminal-protocol.md "Kiosk purchases
 * and paying at the gate"), called by realtime/link-handlers.ts for an
 * authenticated terminal. A failure that is not a rule (a bug) answers an
 * `error` GENERAL_ERROR with the eventId and is logged.
 */
export async function handlePurchase(
  db: Db,
  bus: EventBus,
  link: GateLink,
  m: TerminalPurchase,
  log: Log,
): Promise<ServerPurchaseResult | ServerError> {
  try {
    return await kioskPurchase(db, bus, clearingProvider(), link, m);
  } catch (err) {
    log.error({ err, terminalId: link.terminalId }, 'purchase failed');
    return { type: 'error', code: 'GENERAL_ERROR', message: 'General error', eventId: m.eventId };
  }
}
