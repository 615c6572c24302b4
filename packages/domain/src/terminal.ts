import { z } from 'zod';
import { TerminalConnectionType } from './enums.js';
import { id } from './parts.js';
import { TERMINAL_ACTIONS, type TerminalActionName } from './terminal-actions.js';

/**
 * Terminal settings and cash of seed 001 §3 "Terminal" and seed 001 §8 (cash
 * change errors): the zod contract shared by the server (terminals.settings
 * jsonb, terminal_cash), the console's terminal form and the simulator.
 * Money is integer agorot (minor units) everywhere.
 */

/** Credit card reader of a terminal (seed 001 §3 "credit type"). */
export const CREDIT_TYPES = ['magnetic', 'emvVpos'] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];
/** Fingerprint matching speed (seed 001 §3, §9). */
export const FINGER_MATCHING_SPEEDS = ['Fast', 'Medium', 'Slow'] as const;
export type FingerMatchingSpeed = (typeof FINGER_MATCHING_SPEEDS)[number];

/** ILS coin denominations a coin acceptor takes and pays out, agorot: 10 agorot, ½, 1, 2, 5, 10 ₪ (DOMAIN-FACTS: no 5-agorot coin). */
export const ILS_COINS = [10, 50, 100, 200, 500, 1000] as const;
/** ILS bill denominations, agorot: 20, 50, 100, 200 ₪. */
export const ILS_BILLS = [2000, 5000, 10000, 20000] as const;

const relay = z.number().int().min(0).max(64).nullable();
const coinDenomination = z.union(ILS_COINS.map((d) => z.literal(d)));
const billDenomination = z.union(ILS_BILLS.map((d) => z.literal(d)));

/**
 * Count per denomination (agorot → pieces). Keys are the denomination in
 * agorot as a string (JSON object keys); counts are whole pieces, never negative.
 */
export const Inventory = z
  .record(z.string().regex(/^\d+$/), z.number().int().min(0).max(1_000_000))
  .refine((v) => Object.keys(v).length <= 50, { message: 'tooLong' });
export type Inventory = z.infer<typeof Inventory>;

/** A coin acceptor / hopper: whether it is fitted, its model, and which coins it accepts. */
export const CoinAcceptor = z.object({
  enabled: z.boolean().default(false),
  model: z.string().trim().max(60).default(''),
  /** Coins accepted; a coin not in the list is returned by the acceptor. Default: every ILS coin. */
  accepted: z
    .array(coinDenomination)
    .max(ILS_COINS.length)
    .default([...ILS_COINS]),
});
export type CoinAcceptor = z.infer<typeof CoinAcceptor>;

/** A bill acceptor: whether it is fitted, its model, which bills it accepts (others: "valid unauthorized bill"). */
export const BillAcceptor = z.object({
  enabled: z.boolean().default(false),
  model: z.string().trim().max(60).default(''),
  accepted: z.array(billDenomination).max(ILS_BILLS.length).default([2000, 5000, 10000]),
});
export type BillAcceptor = z.infer<typeof BillAcceptor>;

/**
 * Settings of a terminal beyond its name, serial and gate (seed 001 §3),
 * stored in `terminals.settings` (jsonb) and validated with this schema on
 * read and write. `quickExit` marks a quick-exit terminal (the gate engine
 * reads it); `maintenanceMode` keeps the gate closed to clients.
 */
export const TerminalSettings = z.object({
  maintenanceMode: z.boolean().default(false),
  cvvRequired: z.boolean().default(false),
  allowEnrollment: z.boolean().default(false),
  /** The terminal takes cash (coin and bill acceptors). */
  isCash: z.boolean().default(false),
  /** A management terminal (at the front desk). */
  isManagement: z.boolean().default(false),
  /** A quick-exit terminal (seed 001 §3). */
  quickExit: z.boolean().default(false),
  creditType: z.enum(CREDIT_TYPES).default('magnetic'),
  fingerMatchingSpeed: z.enum(FINGER_MATCHING_SPEEDS).default('Medium'),
  /** Terminal number in the club's accounting system (for the accounting export). */
  accountingTerminalNumber: z.string().trim().max(20).default(''),
  /** How the cash hardware is connected: UsbRelay 1, Paylink 2 (seed 000 §3). */
  cashConnectionType: z
    .union([z.literal(TerminalConnectionType.UsbRelay), z.literal(TerminalConnectionType.Paylink)])
    .default(TerminalConnectionType.UsbRelay),
  faceRecognition: z.boolean().default(false),
  gateRelay: relay.default(null),
  gateChannel: relay.default(null),
  lightsRelay: relay.default(null),
  lightsChannel: relay.default(null),
  payoutRelay: relay.default(null),
  payoutChannel: relay.default(null),
  magneticLockRelay: relay.default(null),
  magneticLockChannel: relay.default(null),
  coinAcceptor: CoinAcceptor.default(CoinAcceptor.parse({})),
  billAcceptor: BillAcceptor.default(BillAcceptor.parse({})),
});
export type TerminalSettings = z.infer<typeof TerminalSettings>;

/** The settings of a stored jsonb value, defaults applied; an invalid stored value falls back to defaults field by field. */
export function terminalSettings(stored: unknown): TerminalSettings {
  const parsed = TerminalSettings.safeParse(stored ?? {});
  if (parsed.success) return parsed.data;
  const base = TerminalSettings.parse({});
  const obj = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  for (const key of Object.keys(base) as (keyof TerminalSettings)[]) {
    const one = TerminalSettings.shape[key].safeParse(obj[key]);
    if (one.success) (base as Record<string, unknown>)[key] = one.data;
  }
  return base;
}

/**
 * Cash held by a terminal (seed 001 §3): `coins` and `bills` are the payout
 * inventories (hopper and bill recycler: change is paid from them), `cashBox`
 * the bills and coins collected and not paid out, `excess` the overpayments
 * kept beyond the club's limit. Each is pieces per denomination.
 */
export const TerminalCash = z.object({
  coins: Inventory,
  bills: Inventory,
  cashBox: Inventory,
  excess: z.object({ amount: z.number().int(), count: z.number().int() }),
});
export type TerminalCash = z.infer<typeof TerminalCash>;

/** Sum of an inventory in agorot. */
export function inventoryTotal(inv: Inventory): number {
  let t = 0;
  for (const [d, n] of Object.entries(inv)) t += Number(d) * n;
  return t;
}

/**
 * Rounds a cash total to the nearest 10 agorot (DOMAIN-FACTS "Money and tax":
 * the 5-agorot coin is withdrawn; 1–4 down, 5–9 up). Card and recorded
 * amounts stay to the agora; only what is paid in cash is rounded.
 */
export function roundCash(agorot: number): number {
  return Math.round(agorot / 10) * 10;
}

/**
 * Change to pay from the payout inventories, greedy by the largest
 * denomination (exact for ILS denominations, which are canonical). Works in
 * integer agorot; never takes more pieces than the inventory holds.
 * @returns the pieces to pay per denomination, what they add up to, and what
 *   cannot be paid (`unpaid`, agorot) for want of pieces
 */
export function planChange(
  amount: number,
  coins: Inventory,
  bills: Inventory,
): { coins: Inventory; bills: Inventory; paid: number; unpaid: number } {
  const out = { coins: {} as Inventory, bills: {} as Inventory, paid: 0, unpaid: 0 };
  let left = Math.max(0, Math.trunc(amount));
  const stock: [number, 'coins' | 'bills', number][] = [
    ...Object.entries(bills).map(([d, n]) => [Number(d), 'bills', n] as [number, 'bills', number]),
    ...Object.entries(coins).map(([d, n]) => [Number(d), 'coins', n] as [number, 'coins', number]),
  ].sort((a, b) => b[0] - a[0]);
  for (const [d, kind, n] of stock) {
    if (left < d || n <= 0) continue;
    const take = Math.min(n, Math.floor(left / d));
    if (take === 0) continue;
    out[kind][String(d)] = (out[kind][String(d)] ?? 0) + take;
    left -= take * d;
    out.paid += take * d;
  }
  out.unpaid = left;
  return out;
}

// ---------------------------------------------------------------- remote actions

export { TERMINAL_ACTIONS, TECHNICIAN_ACTIONS, type TerminalActionName } from './terminal-actions.js';
/** Seconds TerminalActionWithReply waits for the terminal's reply before answering NO_TERMINAL_CONNECTION. */
export const ACTION_REPLY_TIMEOUT_SECONDS = 8;

/** POST /api/Terminal/TerminalAction and /TerminalPing: `targetId` is the terminal (terminalId kept for the catalogue's shape). */
export const TerminalActionInput = z.strictObject({
  terminalId: z.number().int().positive().optional(),
  targetId: z.number().int().positive(),
  actionName: z.enum(TERMINAL_ACTIONS),
  data: z.unknown().optional(),
});
export type TerminalActionInput = z.infer<typeof TerminalActionInput>;
/** POST /api/Terminal/TerminalActionWithReply. */
export const TerminalActionWithReplyInput = TerminalActionInput.omit({ terminalId: true });
export type TerminalActionWithReplyInput = z.infer<typeof TerminalActionWithReplyInput>;

/** Answer of TerminalAction / TerminalPing: whether the terminal was reachable and the action sent. */
export const TerminalActionResult = z.object({ sent: z.boolean(), requestId: z.string() });
export type TerminalActionResult = z.infer<typeof TerminalActionResult>;
/** Answer of TerminalActionWithReply: the terminal's own reply. */
export const TerminalActionReplyResult = z.object({
  requestId: z.string(),
  ok: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  /** Milliseconds between sending the action and the reply. */
  ms: z.number(),
});
export type TerminalActionReplyResult = z.infer<typeof TerminalActionReplyResult>;

/** `data` of setDoorState: the EntranceState the door is set to (seed 000 §3; 5 is not a door state). */
export const SetDoorStateData = z.object({ doorState: z.union([1, 2, 3, 4, 6, 7].map((s) => z.literal(s))) });

/** `data` of an action that needs none; whatever the console sent is passed to the terminal unchanged. */
const anyData = z.unknown().optional();

/**
 * A remote action with its typed `data`, one member per action name (seed 001
 * §2 "remote control"): setDoorState carries SetDoorStateData (other keys
 * passed on untouched), the others any data or none. The server validates an
 * action with it before sending, the simulator before carrying it out. The
 * wire schemas (TerminalActionInput, the protocol's ServerAction) keep
 * `actionName` and `data: unknown`, so the HTTP contract and the protocol
 * stay as they are.
 */
export const TerminalAction = z.discriminatedUnion('actionName', [
  z.object({ actionName: z.literal('openGate'), data: anyData }),
  z.object({ actionName: z.literal('reboot'), data: anyData }),
  z.object({ actionName: z.literal('reloadDisplay'), data: anyData }),
  z.object({ actionName: z.literal('checkForUpdates'), data: anyData }),
  z.object({ actionName: z.literal('setDoorState'), data: SetDoorStateData.loose() }),
  z.object({ actionName: z.literal('ping'), data: anyData }),
  // Seed 000 §3 cash action CashStatusPrint: the terminal prints a slip of its cash (box, coins, bills).
  z.object({ actionName: z.literal('cashStatusPrint'), data: anyData }),
]);
export type TerminalAction = z.infer<typeof TerminalAction>;
/** Every name of TERMINAL_ACTIONS has its member in TerminalAction (this does not compile otherwise). */
const _everyActionTyped: [TerminalActionName] extends [TerminalAction['actionName']] ? true : never = true;

/** GET /api/Terminal/GetConnectedDevices/{id}. */
export const ConnectedDevices = z.object({
  terminalId: z.number(),
  connected: z.boolean(),
  devices: z.array(z.string()),
  /** When the devices were last reported (hello or heartbeat), ISO; null when never. */
  reportedAt: z.string().nullable(),
});
export type ConnectedDevices = z.infer<typeof ConnectedDevices>;

/** GET /api/Terminal/GetCashBoxStatus/{id}: inventories and totals (agorot). */
export const CashBoxStatus = TerminalCash.extend({
  terminalId: z.number(),
  coinsTotal: z.number(),
  billsTotal: z.number(),
  cashBoxTotal: z.number(),
  /** Last reset of the cash levels, ISO; null when never. */
  lastResetAt: z.string().nullable(),
});
export type CashBoxStatus = z.infer<typeof CashBoxStatus>;

/** POST /api/Terminal/CreateResetCashLevels. */
export const ResetCashLevelsInput = z.strictObject({ terminalId: id });
/** A cash-reset record (cash management report): what the box held when it was emptied. */
export const CashReset = z.object({
  id: z.number(),
  terminalId: z.number(),
  at: z.string(),
  userId: z.number().nullable(),
  cashBox: Inventory,
  cashBoxTotal: z.number(),
  excessAmount: z.number(),
});
export type CashReset = z.infer<typeof CashReset>;

/** Cash session states (seed 001 §4 "Cash session"). */
export const CASH_SESSION_STATES = [
  'begin',
  'paymentCompleted',
  'paymentApproved',
  'startPayout',
  'closed',
  'canceled',
  'rejected',
] as const;
export type CashSessionState = (typeof CASH_SESSION_STATES)[number];
/** Cash change errors (seed 001 §8). */
export const CASH_ERRORS = ['COIN_CHANGE_ERROR', 'BILL_CHANGE_ERROR', 'VALID_UNAUTHORIZED_BILL'] as const;
export type CashError = (typeof CASH_ERRORS)[number];
