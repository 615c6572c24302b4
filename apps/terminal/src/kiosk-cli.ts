import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  Identification,
  IdentificationKind,
  ILS_BILLS,
  ILS_COINS,
  PaymentMethod,
  PurchaseItemType,
  SUBSCRIPTION_PERIODS,
  KioskPayment,
  type ServerPurchaseResult,
  type TerminalPurchaseInput,
} from '@venue/domain';
import type { TerminalClient } from './client.js';
import { buy } from './kiosk.js';
import { parseOneShot, runOneShot, usage } from './one-shot.js';

/**
 * Kiosk purchases and paying at the gate in the simulator
 * (docs/terminal-protocol.md "Kiosk purchases and paying at the gate"): the
 * one-shot `buy` command and the interactive mode's `buy` line. Amounts are
 * typed in shekels and sent in agorot.
 */

/** The sandbox's always-approved test card (docs/money.md). */
export const TEST_CARD = '4242424242424242';

export const KIOSK_HELP = `
Kiosk purchases and paying at the gate:
  buy <kind> <value> <item...> --serial <serial> [--card <number> | --cash <₪>] [--event-id <id>]
                          Buy at the terminal for the client <kind> <value> (card 100001, code 17, ...).
                          <item...> is one of:
                            product <id> [quantity]      a product of the club at its price
                            load <₪>                     load money (beats)
                            subscription <period> <₪>    a subscription (${SUBSCRIPTION_PERIODS.join(', ')})
                            towel <₪>                    a towel
                            entrance                     pay for the entrance at an OpenWithPay gate
                                                         (the decision offered the price; admitted with reason 7)
                          Pay by card (default the sandbox test card ${TEST_CARD}; 4000000000000002 is
                          declined) or by cash: --cash <₪> inserts that much in bills and coins in a cash
                          session and pays from it (the change is paid out). The same --event-id again
                          answers the first purchase and charges nothing again.
                          Prints {"type":"purchase-result","ok","purchaseId","invoiceNumber","total",...}.
`;

function shekels(text: string | undefined): number | null {
  if (!text || !/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}

/** Parses `<item...>` (after the identification); an error text when it is wrong. */
export function parseItem(words: string[]): TerminalPurchaseInput['items'][number] | string {
  const [what, a, b] = words;
  if (what === 'product') {
    const id = Number(a);
    const quantity = b != null ? Number(b) : 1;
    if (!Number.isInteger(id) || id <= 0 || !Number.isInteger(quantity) || quantity <= 0) {
      return 'usage: product <id> [quantity]';
    }
    return { itemType: PurchaseItemType.Product, itemId: id, quantity };
  }
  if (what === 'load' || what === 'towel') {
    const amount = shekels(a);
    if (amount == null) return `usage: ${what} <₪>`;
    return { itemType: what === 'load' ? PurchaseItemType.ChargingMoney : PurchaseItemType.Towel, unitPrice: amount };
  }
  if (what === 'subscription') {
    const amount = shekels(b);
    if (!(SUBSCRIPTION_PERIODS as readonly string[]).includes(a ?? '') || amount == null) {
      return `usage: subscription <${SUBSCRIPTION_PERIODS.join('|')}> <₪>`;
    }
    return {
      itemType: PurchaseItemType.NewSubscription,
      unitPrice: amount,
      subscription: { period: a as (typeof SUBSCRIPTION_PERIODS)[number] },
    };
  }
  if (what === 'entrance') return { itemType: PurchaseItemType.Entrance };
  return 'item is one of: product, load, subscription, towel, entrance';
}

/** A card payment (the amount is filled in by the server). */
export function cardPayment(number = TEST_CARD): z.input<typeof KioskPayment> {
  return { method: PaymentMethod.CreditCard, card: { number, expiry: '12/35', cvv: '123' } };
}

/** Bills and coins (agorot) that make up `amount`, largest first. */
export function piecesFor(amount: number): { kind: 'bill' | 'coin'; denomination: number }[] {
  const out: { kind: 'bill' | 'coin'; denomination: number }[] = [];
  let left = amount;
  const all = [
    ...[...ILS_BILLS].map((d) => ({ kind: 'bill' as const, d })),
    ...[...ILS_COINS].map((d) => ({ kind: 'coin' as const, d })),
  ].sort((x, y) => y.d - x.d);
  for (const { kind, d } of all) {
    while (left >= d) {
      out.push({ kind, denomination: d });
      left -= d;
    }
  }
  return out;
}

/**
 * Buys with cash: a cash session for the client, the pieces inserted, the
 * purchase paid from the session, the change paid out.
 */
export async function buyWithCash(
  client: TerminalClient,
  identification: Identification,
  item: TerminalPurchaseInput['items'][number],
  inserted: number,
  eventId: string = randomUUID(),
): Promise<ServerPurchaseResult> {
  const sessionId = `kiosk-${eventId}`;
  const begun = await client.cashBegin(sessionId, identification);
  if (begun.state === 'rejected') {
    return { type: 'purchase-result', eventId, ok: false, error: begun.message ?? 'CASH_SESSION_INVALID' };
  }
  for (const p of piecesFor(inserted)) await client.cashInsert(sessionId, p.kind, p.denomination);
  const r = await buy(client, {
    eventId,
    identification,
    items: [item],
    payments: [{ method: PaymentMethod.Cash, cashSessionId: sessionId }],
  });
  if (!r.ok) {
    // Not bought: the inserted money is paid back.
    const back = await client.cashCancel(sessionId);
    if (back.change && back.change.amount > 0) {
      await client.cashPayoutDone(sessionId, back.change.coins, back.change.bills);
    }
    return r;
  }
  if (r.cash?.state === 'startPayout' && r.cash.change) {
    // The simulated hopper pays out what the server planned.
    await client.cashPayoutDone(sessionId, r.cash.change.coins, r.cash.change.bills);
  }
  return r;
}

/** `buy` from the command line; resolves with the exit code (0 the server answered). */
export async function runKioskCommand(argv: string[]): Promise<number> {
  const parsed = parseOneShot(argv, { card: { type: 'string' }, cash: { type: 'string' } }, 15_000);
  if (parsed.help) {
    process.stdout.write(KIOSK_HELP);
    return 0;
  }
  const { values, positionals, serial, timeoutMs } = parsed;
  const ident = Identification.safeParse({ kind: positionals[0], value: positionals[1] });
  if (!ident.success) usage(`buy needs <kind> <value>: kind is one of ${IdentificationKind.join(', ')}`);
  const item = parseItem(positionals.slice(2));
  if (typeof item === 'string') usage(item);
  const cash = values.cash != null ? shekels(values.cash) : undefined;
  if (cash === null || cash === 0) usage('--cash <₪> must be a positive amount');
  if (values.card != null && !/^[\d ]{12,23}$/.test(values.card)) usage('--card must be a card number');
  return runOneShot({ ...values, serial }, timeoutMs, async (client) => {
    await client.connect();
    const eventId = values['event-id'] ?? randomUUID();
    return cash != null
      ? buyWithCash(client, ident.data, item, cash, eventId)
      : buy(
          client,
          { eventId, identification: ident.data, items: [item], payments: [cardPayment(values.card)] },
          timeoutMs,
        );
  });
}

export const INTERACTIVE_KIOSK_HELP = `  buy <kind> <value> <item...> [card [number] | cash]
                         kiosk purchase (item: product <id> [qty], load <₪>, subscription <period> <₪>,
                         towel <₪>, entrance = pay at an OpenWithPay gate); cash pays from the open
                         cash session (start it with pay, insert coins and bills, then buy ... cash)`;

/**
 * The interactive mode's `buy` line: buys by card (the test card unless a
 * number follows) or from the open cash session. Answers the display line,
 * the seconds the gate opens (paid entrance) and whether the session was used.
 */
export async function interactiveBuy(
  client: TerminalClient,
  args: string[],
  cashSessionId: string | undefined,
): Promise<{ line: string; gateOpenSeconds: number; sessionUsed: boolean }> {
  const ident = Identification.safeParse({ kind: args[0] === 'finger' ? 'fingerprint' : args[0], value: args[1] });
  if (!ident.success)
    return {
      line: 'usage: buy <kind> <value> <item...> [card [number] | cash]',
      gateOpenSeconds: 0,
      sessionUsed: false,
    };
  const rest = args.slice(2);
  const payAt = rest.findIndex((w) => w === 'card' || w === 'cash');
  const item = parseItem(payAt >= 0 ? rest.slice(0, payAt) : rest);
  if (typeof item === 'string') return { line: item, gateOpenSeconds: 0, sessionUsed: false };
  const byCash = payAt >= 0 && rest[payAt] === 'cash';
  if (byCash && !cashSessionId)
    return { line: 'start a cash session first: pay <kind> <value>', gateOpenSeconds: 0, sessionUsed: false };
  const payment: z.input<typeof KioskPayment> = byCash
    ? { method: PaymentMethod.Cash, cashSessionId }
    : cardPayment(payAt >= 0 && rest[payAt + 1] ? rest[payAt + 1] : undefined);
  const r = await buy(client, { identification: ident.data, items: [item], payments: [payment] });
  if (byCash && r.ok && r.cash?.state === 'startPayout' && r.cash.change) {
    await client.cashPayoutDone(cashSessionId!, r.cash.change.coins, r.cash.change.bills);
  }
  const money = (a: number | undefined) => ((a ?? 0) / 100).toFixed(2);
  const line = r.ok
    ? `PAID invoice ${r.invoiceNumber}, ${money(r.total)} ₪` +
      (r.change ? `, change ${money(r.change)} ₪` : '') +
      (r.cash?.unpaid ? `, change not paid ${money(r.cash.unpaid)} ₪ ${r.cash.error ?? ''}` : '') +
      `, balance ${money(r.balanceAfter)} ₪` +
      (r.subscriptionEnd ? `, subscription until ${r.subscriptionEnd}` : '') +
      (r.decision ? ` — ${r.decision.status === 1 ? 'WELCOME' : 'REFUSED'} ${r.decision.message}` : '')
    : `NOT PAID: ${r.error}${r.details?.reason ? ` (${String(r.details.reason)})` : ''}` +
      (r.decision ? ` — ${r.decision.message} (status ${r.decision.status})` : '');
  return { line, gateOpenSeconds: r.decision?.gateOpenSeconds ?? 0, sessionUsed: byCash && r.ok };
}
