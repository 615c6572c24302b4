import { randomUUID } from 'node:crypto';
import type { ServerMessage, ServerPurchaseResult, TerminalPurchaseInput } from '@venue/domain';
import { TerminalError, type TerminalClient } from './client.js';

/**
 * Kiosk purchases and paying at the gate on top of a connected TerminalClient
 * (docs/terminal-protocol.md "Kiosk purchases and paying at the gate"): a
 * `purchase` with the terminal's eventId resolves with the `purchase-result`
 * of the same eventId. Resending with the same eventId answers the first
 * outcome and charges nothing again.
 */
export function buy(
  client: TerminalClient,
  p: Omit<TerminalPurchaseInput, 'type' | 'eventId'> & { eventId?: string },
  timeoutMs = 15_000,
): Promise<ServerPurchaseResult> {
  const message: TerminalPurchaseInput = { type: 'purchase', ...p, eventId: p.eventId ?? randomUUID() };
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      if ((m as { eventId?: string }).eventId !== message.eventId) return;
      if (m.type === 'purchase-result') finish(null, m);
      else if (m.type === 'error') finish(new TerminalError(m.code, m.message));
    };
    const timer = setTimeout(
      () => finish(new TerminalError('TIMEOUT', 'No purchase-result from the server')),
      timeoutMs,
    );
    const finish = (err: Error | null, m?: ServerPurchaseResult) => {
      clearTimeout(timer);
      client.off('message', onMessage);
      if (err) reject(err);
      else resolve(m!);
    };
    client.on('message', onMessage);
    client.sendRaw(JSON.stringify(message));
  });
}
