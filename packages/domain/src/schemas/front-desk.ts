import { z } from 'zod';
import { id, idParam, text } from '../parts.js';
import { idempotencyKey } from './helpers.js';
import { PaymentInput, Purchase, PurchaseItemInput } from './purchases.js';

/**
 * The front desk (issue 35; docs/front-desk.md): one search box, the member
 * at a glance with what the gate decides for them now, check in through a
 * chosen gate (with a recorded override where allowed) and the sale of an
 * entrance that admits. Money is integer agorot; dates YYYY-MM-DD in the
 * club's time zone; instants ISO.
 */

/** Most clients the search answers (the console asks for a narrower term beyond). */
export const FRONT_DESK_MAX_MATCHES = 20;

/**
 * GET /api/FrontDesk/Find?q=: what the one box took — a card swipe (a
 * keyboard-wedge reader types the card's number and Enter), a phone, a name,
 * an ID or a member number.
 */
export const FrontDeskFindQuery = z.object({ q: text(100).trim().min(1, { message: 'required' }) });
export type FrontDeskFindQuery = z.infer<typeof FrontDeskFindQuery>;

/** One client found. */
export const FrontDeskMatch = z.object({
  id: z.number(),
  number: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  personalId: z.string(),
  groupName: z.string().nullable(),
  /** ClientStatus: 1 active, 2 inactive. */
  status: z.number(),
  subscriptionEnd: z.string().nullable(),
});
export type FrontDeskMatch = z.infer<typeof FrontDeskMatch>;

/**
 * How the clients were found: `card` the exact card serial, `code` the exact
 * client code or member number, `search` the client list's search (every
 * word in names, ID, card, phone; digits also the phone without its trunk zero).
 */
export const FRONT_DESK_MATCH_KINDS = ['card', 'code', 'search'] as const;
export const FrontDeskFindResult = z.object({
  by: z.enum(FRONT_DESK_MATCH_KINDS),
  items: z.array(FrontDeskMatch),
  /** More clients match than FRONT_DESK_MAX_MATCHES. */
  more: z.boolean(),
});
export type FrontDeskFindResult = z.infer<typeof FrontDeskFindResult>;

/** A gate (terminal) the desk may admit through: GET /api/FrontDesk/Gates, main terminal first. */
export const FrontDeskGate = z.object({
  id: z.number(),
  name: z.string(),
  isMain: z.boolean(),
  approved: z.boolean(),
  /** A live link to a server instance: the gate opens when the desk admits. */
  connected: z.boolean(),
  /** The terminal's own door state (EntranceState). */
  doorState: z.number(),
});
export type FrontDeskGate = z.infer<typeof FrontDeskGate>;

/** GET /api/FrontDesk/Client/{id}?terminalId=: the gate to judge the entrance at (none: no verdict). */
export const FrontDeskGlanceQuery = z.object({ terminalId: idParam.optional() });
export type FrontDeskGlanceQuery = z.infer<typeof FrontDeskGlanceQuery>;

/** An entrance decision as the desk shows it (status of seed 000 §4, reason 0–29). */
export const DeskDecision = z.object({
  status: z.number(),
  reason: z.number(),
  approved: z.boolean(),
  /** EntrancePaymentType of an approval. */
  paymentType: z.number(),
  /** Money the approval takes from the balance, agorot. */
  amount: z.number(),
});
export type DeskDecision = z.infer<typeof DeskDecision>;

/**
 * What selling one entrance at the suggested price does now: `notRequired`
 * the gate admits without a payment; `admits` the paid entrance admits;
 * `refused` the gate refuses even when paid (with that refusal).
 */
export const DESK_SALE_OUTCOMES = ['notRequired', 'admits', 'refused'] as const;

/** The gate's verdict for the client now, at the chosen gate (nothing written). */
export const DeskVerdict = z.object({
  terminalId: z.number(),
  terminalName: z.string(),
  /**
   * The entrance state in force for the client's group at this gate now (EntranceState: the
   * schedule row in force, else the group's own, narrowed by the gate's door); 1 Closed when the
   * group does not allow entrance; null without a group.
   */
  state: z.number().nullable(),
  /** Whether the group is open at this gate now (state not Closed). */
  open: z.boolean(),
  /** The decision of a presentation now. */
  decision: DeskDecision,
  /** The price of one entrance now: the client's special price, else the schedule row's (agorot). */
  price: z.number(),
  sale: z.object({ outcome: z.enum(DESK_SALE_OUTCOMES), decision: DeskDecision }),
  /** A refusal a user with roleOverrideEntrance may override (docs/front-desk.md "The override rule"). */
  overridable: z.boolean(),
});
export type DeskVerdict = z.infer<typeof DeskVerdict>;

/** The member at a glance: GET /api/FrontDesk/Client/{id}. */
export const FrontDeskGlance = z.object({
  client: z.object({
    id: z.number(),
    number: z.number(),
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string(),
    personalId: z.string(),
    cardSerial: z.string(),
    status: z.number(),
    clientType: z.number(),
    /** The message to show the client (clients.message_to_client), '' when none. */
    messageToClient: z.string(),
    /** A face enrolment image exists (GET /api/Client/GetFaceImages/{id} shows it). */
    hasPhoto: z.boolean(),
  }),
  group: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  subscription: z.object({
    start: z.string().nullable(),
    end: z.string().nullable(),
    /** Valid on the club's today (an end in year 2125 is unlimited). */
    valid: z.boolean(),
  }),
  /** Money balance ("beats"), temporary balance (agorot) and bonus entrances (count). */
  balance: z.number(),
  tempBalance: z.number(),
  bonusEntries: z.number(),
  /** Open debts, newest first, and their sum (agorot). */
  debts: z.object({
    open: z.number(),
    items: z.array(z.object({ id: z.number(), open: z.number(), description: z.string(), inCollection: z.boolean() })),
  }),
  lastEntrance: z
    .object({ at: z.string(), terminalName: z.string().nullable(), status: z.number(), reason: z.number() })
    .nullable(),
  /** The gate's verdict at the chosen gate; null without one (or for a deleted client). */
  verdict: DeskVerdict.nullable(),
});
export type FrontDeskGlance = z.infer<typeof FrontDeskGlance>;

/** An override's reason: what the staff member says, kept with the entrance (3–200 characters). */
export const OverrideReason = text(200).trim().min(3, { message: 'overrideReasonRequired' });

/**
 * POST /api/FrontDesk/CheckIn: admit the client through the gate by the gate's
 * rules, recorded as an entrance of that terminal. `override` admits a refusal
 * (roleOverrideEntrance). A retry with the same key answers the first outcome.
 */
export const CheckInRequest = z.strictObject({
  clientId: id,
  terminalId: id,
  override: z.strictObject({ reason: OverrideReason }).optional(),
  idempotencyKey,
});
export type CheckInRequest = z.infer<typeof CheckInRequest>;

/** The outcome of a check-in or of a sold entrance. */
export const CheckInResult = z.object({
  admitted: z.boolean(),
  decision: DeskDecision,
  /** The entrance_logs row recorded (0 when nothing was). */
  entranceId: z.number(),
  /** An override was recorded: the refusal it overrode. */
  overridden: DeskDecision.nullable(),
  /** The gate was told to open (it has a live link); false: admitted in the records only. */
  gateOpened: z.boolean(),
  /** A retry of a key already answered. */
  duplicate: z.boolean(),
});
export type CheckInResult = z.infer<typeof CheckInResult>;

/**
 * POST /api/FrontDesk/SellEntrance: a sale by the one purchase path
 * (createPurchase, source console; the purchase dialog's own request) holding
 * exactly one Entrance item of quantity 1 (other items may ride along), and,
 * in its transaction, the entrance it pays for admitted through the gate
 * (status 1, reason 7 EntryByPayment). A retry with the same key answers the
 * first sale and admission.
 */
export const SellEntranceRequest = z.strictObject({
  clientId: id,
  terminalId: id,
  purchaseItems: z.array(PurchaseItemInput).min(1).max(50),
  payments: z.array(PaymentInput).min(1).max(10),
  idempotencyKey,
});
export type SellEntranceRequest = z.infer<typeof SellEntranceRequest>;

export const SellEntranceResult = z.object({ purchase: Purchase, checkIn: CheckInResult });
export type SellEntranceResult = z.infer<typeof SellEntranceResult>;
