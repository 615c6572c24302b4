import { z } from 'zod';
import { id, money, text } from '../parts.js';
import { PreviewDay } from './groups.js';
import { NOTICE_KINDS } from './notifications.js';

/**
 * The member app (issue 37; docs/members.md): sign-in by a one-time code sent
 * to the phone or e-mail on file, the club chosen after the code, and what a
 * member sees and pays for herself and the children linked to her. Money is
 * integer agorot; dates YYYY-MM-DD in the club's time zone; instants ISO.
 */

/** Digits of a one-time sign-in code. */
export const MEMBER_CODE_LENGTH = 6;
/** Seconds a code stays valid (10 minutes). */
export const MEMBER_CODE_TTL_SECONDS = 600;
/** Wrong codes a code survives: the fifth wrong try spends it. */
export const MEMBER_CODE_TRIES = 5;

/** A phone number (any common spelling; the server normalises it to E.164) or an e-mail address. */
const contact = text(200).trim().min(3, { message: 'required' });

/** POST /api/Member/RequestCode: where to send a code. */
export const MemberCodeRequest = z.strictObject({
  contact,
  /** The language of the message (the app's). */
  language: z.enum(['he', 'en']).default('he'),
});
export type MemberCodeRequest = z.infer<typeof MemberCodeRequest>;

/**
 * The answer to a code request: the same whether or not the contact is on
 * file (it does not tell who is a member); `channel` follows the contact's spelling.
 */
export const MemberCodeSent = z.object({
  ok: z.literal(true),
  channel: z.enum(['sms', 'email']),
  expiresInSeconds: z.number(),
});
export type MemberCodeSent = z.infer<typeof MemberCodeSent>;

/** POST /api/Member/SignIn: the contact and the code received. */
export const MemberSignInRequest = z.strictObject({
  contact,
  code: z.string().regex(/^\d{6}$/, { message: 'memberCodeFormat' }),
});
export type MemberSignInRequest = z.infer<typeof MemberSignInRequest>;

/** A club where the contact is on file. */
export const MemberClub = z.object({ clubId: z.number(), name: z.string() });
export type MemberClub = z.infer<typeof MemberClub>;

/**
 * A member token (a session kind apart from staff: it reaches member routes
 * only) and the clubs of the contact; `clubId` is the club already chosen
 * (the only one), or null when the member must pick (POST /api/Member/Club).
 */
export const MemberSignInResponse = z.object({
  token: z.string(),
  expiresIn: z.number(),
  clubs: z.array(MemberClub),
  clubId: z.number().nullable(),
});
export type MemberSignInResponse = z.infer<typeof MemberSignInResponse>;

/** POST /api/Member/Club: the club to act in (one of the contact's). */
export const MemberChooseClub = z.strictObject({ clubId: id });
export type MemberChooseClub = z.infer<typeof MemberChooseClub>;

/** The signed-in member or one of her children, as the app lists them. */
export const MemberPerson = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  email: z.string(),
  groupName: z.string().nullable(),
  subscriptionEnd: z.string().nullable(),
  /** Money balance (agorot). */
  balance: z.number(),
  /** Sum of open debts (agorot). */
  debt: z.number(),
});
export type MemberPerson = z.infer<typeof MemberPerson>;

/** GET /api/Member/Me: the club, the member and the children linked to her. */
export const MemberMe = z.object({
  club: MemberClub,
  member: MemberPerson,
  children: z.array(MemberPerson),
});
export type MemberMe = z.infer<typeof MemberMe>;

/** GET /api/Member/Subscription/{id}: the group, the dates and this week's real opening hours. */
export const MemberSubscription = z.object({
  clientId: z.number(),
  groupName: z.string().nullable(),
  subscriptionStart: z.string().nullable(),
  subscriptionEnd: z.string().nullable(),
  /** Subscription days left counting today; null without an end date, 0 when ended. */
  daysLeft: z.number().nullable(),
  /** The club's location the hours are computed at. */
  location: z.string(),
  /** Seven days from today (the group's schedule at the club's location; domain weekPreview.ts); empty without a group. */
  week: z.array(PreviewDay),
  /** The price a renewal would charge today (agorot), or null when there is nothing to renew. */
  renewPrice: z.number().nullable(),
});
export type MemberSubscription = z.infer<typeof MemberSubscription>;

/** One open debt. */
export const MemberDebt = z.object({
  id: z.number(),
  /** What is still owed (agorot). */
  open: z.number(),
  description: z.string(),
  createdAt: z.string(),
});
export type MemberDebt = z.infer<typeof MemberDebt>;

/** GET /api/Member/Money/{id}: balances and open debts (agorot). */
export const MemberMoney = z.object({
  clientId: z.number(),
  balance: z.number(),
  tempBalance: z.number(),
  debts: z.array(MemberDebt),
});
export type MemberMoney = z.infer<typeof MemberMoney>;

/** One entrance of the member (or her child): when, the gate's status and reason codes (seed 000 §4). */
export const MemberEntrance = z.object({
  at: z.string(),
  status: z.number(),
  reason: z.number(),
});
export type MemberEntrance = z.infer<typeof MemberEntrance>;

/** One tax document of a purchase of the member (or her child). */
export const MemberDocument = z.object({
  id: z.number(),
  purchaseId: z.number(),
  /** DocumentKind: 320 tax invoice-receipt, 330 credit invoice, 400 receipt, 410 refund receipt. */
  kind: z.number(),
  number: z.number(),
  issuedAt: z.string(),
  /** The purchase's total (agorot). */
  total: z.number(),
});
export type MemberDocument = z.infer<typeof MemberDocument>;

/** PATCH /api/Member/Contact: the member's own phone and e-mail on file. */
export const MemberContactPatch = z.strictObject({
  phone: text(30).trim().optional(),
  email: z.union([z.literal(''), z.email({ message: 'invalidEmail' }).max(200)]).optional(),
});
export type MemberContactPatch = z.infer<typeof MemberContactPatch>;

/**
 * PATCH /api/Member/NotificationChoices: the member turns notices by e-mail or SMS on or off, or
 * single notice kinds (docs/notifications.md "Opting out"); what is left out is kept. Sign-in
 * codes are not notices: they always go to the contact she asks them for.
 */
export const MemberNotificationChoicesPatch = z.strictObject({
  email: z.boolean().optional(),
  sms: z.boolean().optional(),
  offKinds: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length).optional(),
});
export type MemberNotificationChoicesPatch = z.infer<typeof MemberNotificationChoicesPatch>;

/** What a member pays for on the provider's hosted page. */
export const MEMBER_CHECKOUT_KINDS = ['debt', 'load', 'renew'] as const;

/**
 * POST /api/Member/Checkout: pay a debt (`debtId`, its whole open amount),
 * load the balance (`amount` agorot) or renew the subscription (today's renewal
 * price), for the member or a child of hers (`clientId`).
 */
export const MemberCheckoutRequest = z.strictObject({
  clientId: id,
  kind: z.enum(MEMBER_CHECKOUT_KINDS),
  debtId: id.optional(),
  amount: money.positive({ message: 'invalidAmount' }).optional(),
});
export type MemberCheckoutRequest = z.infer<typeof MemberCheckoutRequest>;

/** A started checkout: the provider's hosted page to open, and the amount it will charge (agorot, with any card fee). */
export const MemberCheckoutStarted = z.object({ code: z.string(), url: z.string(), amount: z.number() });
export type MemberCheckoutStarted = z.infer<typeof MemberCheckoutStarted>;

/** GET /api/Member/Checkout/{code}: how a checkout ended; `documentId` the purchase's tax document once paid. */
export const MemberCheckoutState = z.object({
  code: z.string(),
  kind: z.enum(MEMBER_CHECKOUT_KINDS),
  clientId: z.number(),
  amount: z.number(),
  status: z.enum(['pending', 'paid', 'failed']),
  reason: z.string().nullable(),
  purchaseId: z.number().nullable(),
  documentId: z.number().nullable(),
});
export type MemberCheckoutState = z.infer<typeof MemberCheckoutState>;

/** Path `{code}` of a checkout: its random reference. */
export const MemberCheckoutParams = z.object({ code: z.string().regex(/^[\w-]{16,64}$/, { message: 'invalidCode' }) });

/**
 * The provider's signed callback (POST /api/Member/PaymentCallback): the
 * checkout's reference, the outcome, the card token made on its page (never
 * the card number) and an HMAC-SHA-256 of the other fields (docs/members.md
 * "The hosted-page provider shape").
 */
export const HostedPaymentCallback = z.strictObject({
  reference: text(100),
  status: z.enum(['approved', 'declined', 'cancelled']),
  token: text(200).default(''),
  lastFour: text(4).default(''),
  brand: text(30).default(''),
  reason: text(100).default(''),
  signature: text(200),
});
export type HostedPaymentCallback = z.infer<typeof HostedPaymentCallback>;
