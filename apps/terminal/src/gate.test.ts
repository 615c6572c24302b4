import { afterEach, describe, expect, it } from 'vitest';
import type { TerminalClient } from './client.js';
import { enroll, exitGate, nextPush } from './gate.js';
import { buy } from './kiosk.js';
import { welcomedClient } from './test-socket.js';

/**
 * How the simulator's gate (enrol, quick exit, pushed configuration) and
 * kiosk requests react to the server's answers, with a stand-in socket.
 */

const clients: TerminalClient[] = [];
async function connected() {
  const c = await welcomedClient();
  clients.push(c.client);
  return c;
}
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

describe('gate requests', () => {
  it('exitGate resolves with the exit-result of its eventId only', async () => {
    const { client, socket } = await connected();
    const p = exitGate(client, { kind: 'card', value: '100001' }, { eventId: 'x-1' });
    expect(socket.last('exit')).toEqual({
      type: 'exit',
      eventId: 'x-1',
      identification: { kind: 'card', value: '100001' },
    });
    const result = {
      type: 'exit-result',
      outcome: 1,
      message: 'QuickExitReward',
      rewardAmount: 500,
      gateOpenSeconds: 3,
    };
    socket.serverSends({ ...result, eventId: 'x-other', rewardAmount: 1 });
    socket.serverSends({ ...result, eventId: 'x-1' });
    await expect(p).resolves.toMatchObject({ eventId: 'x-1', rewardAmount: 500 });
  });

  it('exitGate rejects with the error of its eventId', async () => {
    const { client, socket } = await connected();
    const p = exitGate(client, { kind: 'code', value: '7' }, { eventId: 'x-2' });
    socket.serverSends({ type: 'error', code: 'GENERAL_ERROR', message: 'General error', eventId: 'x-2' });
    await expect(p).rejects.toMatchObject({ code: 'GENERAL_ERROR' });
  });

  it('exitGate times out without an answer', async () => {
    const { client } = await connected();
    const p = exitGate(client, { kind: 'code', value: '7' }, { eventId: 'x-3', timeoutMs: 20 });
    await expect(p).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('enroll resolves with the enrolled answer of its eventId', async () => {
    const { client, socket } = await connected();
    const p = enroll(client, { eventId: 'e-1', clientNumber: 12, password: 'pw', kind: 'card', template: '555' });
    expect(socket.last('enroll')).toMatchObject({ eventId: 'e-1', clientNumber: 12, kind: 'card' });
    socket.serverSends({ type: 'enrolled', eventId: 'e-1', ok: false, code: 'WRONG_PASSWORD' });
    await expect(p).resolves.toEqual({ type: 'enrolled', eventId: 'e-1', ok: false, code: 'WRONG_PASSWORD' });
  });

  it('nextPush finds a push already received, or waits for the next one that matches', async () => {
    const { client, socket } = await connected();
    const item = {
      id: 1,
      type: 'Basic' as const,
      content: 'Closed on Friday',
      displaySeconds: 5,
      startDate: null,
      endDate: null,
    };
    socket.serverSends({ type: 'messages', items: [item] });
    await expect(nextPush(client, 'messages', { since: 0 })).resolves.toMatchObject({
      items: [{ content: 'Closed on Friday' }],
    });
    const templates = nextPush(client, 'templates', { where: (m) => m.changes.length > 0 });
    socket.serverSends({ type: 'templates', changes: [] });
    socket.serverSends({ type: 'templates', changes: [{ action: 'deleted', templateId: 9, kind: 'face' }] });
    await expect(templates).resolves.toMatchObject({ changes: [{ templateId: 9 }] });
  });
});

describe('kiosk purchases', () => {
  // What buy sends is the server's to validate; the simulator passes it through.
  const purchase = {
    identification: { kind: 'card' as const, value: '100001' },
    items: [],
    payments: [{ method: 7 as const }],
  };

  it('buy resolves with the purchase-result of its eventId', async () => {
    const { client, socket } = await connected();
    const p = buy(client, { ...purchase, eventId: 'p-1' });
    expect(socket.last('purchase')).toMatchObject({ type: 'purchase', eventId: 'p-1' });
    socket.serverSends({ type: 'purchase-result', eventId: 'p-0', ok: true });
    socket.serverSends({ type: 'purchase-result', eventId: 'p-1', ok: true, total: 3500 });
    await expect(p).resolves.toMatchObject({ eventId: 'p-1', ok: true, total: 3500 });
  });

  it('buy rejects with the error of its eventId', async () => {
    const { client, socket } = await connected();
    const p = buy(client, { ...purchase, eventId: 'p-2' });
    socket.serverSends({ type: 'error', code: 'BAD_MESSAGE', message: 'items: invalid', eventId: 'p-2' });
    await expect(p).rejects.toMatchObject({ code: 'BAD_MESSAGE' });
  });
});
