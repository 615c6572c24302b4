import { z } from 'zod';
import { CLUB_CLASSES } from './operator.js';

/**
 * The operator's charges of clubs, terminal fleet and operator-only club
 * settings (issue 17; seed 000 §7 "Club" `POST /Club/StartChargeClub`;
 * docs/operator.md "Charging clubs", "Terminal fleet", "Operator-only settings").
 */

// ---------------------------------------------------------------- charging clubs

/** How a yearly charge of a club ended: charged, declined by the provider, outcome unknown, or no stored card. */
export const CLUB_CHARGE_STATUSES = ['approved', 'declined', 'uncertain', 'noCard'] as const;
export type ClubChargeStatus = (typeof CLUB_CHARGE_STATUSES)[number];

/**
 * `POST /Operator/Club/{id}/StartChargeClub`: charge the club's stored card
 * for its yearly licenses of `year`. `quantity` defaults to the club's clients
 * holding a license valid on or after 1 January of the year.
 */
export const StartChargeClubInput = z
  .object({
    year: z.number().int().min(2000, { message: 'outOfRange' }).max(2100, { message: 'outOfRange' }),
    quantity: z.number().int().min(1, { message: 'outOfRange' }).max(1_000_000, { message: 'outOfRange' }).optional(),
  })
  .strict();
export type StartChargeClubInput = z.infer<typeof StartChargeClubInput>;

/** One attempt to charge a club for a license year (amounts in minor units). */
export const ClubCharge = z.object({
  id: z.number().int(),
  clubId: z.number().int(),
  externalClubId: z.number().int(),
  clubName: z.string(),
  year: z.number().int(),
  /** 1 for the first attempt of the year; a new attempt only after a failed one. */
  attempt: z.number().int(),
  quantity: z.number().int(),
  /** Yearly price of one license and the amount charged (quantity × price). */
  price: z.number().int(),
  amount: z.number().int(),
  status: z.enum(CLUB_CHARGE_STATUSES),
  /** The provider's reason of a decline ('declined', 'insufficient_funds', …) or null. */
  error: z.string().nullable(),
  /** Last four digits of the card charged ('' without a card). */
  lastFour: z.string(),
  createdAt: z.string(),
});
export type ClubCharge = z.infer<typeof ClubCharge>;

/** `GET /Operator/ClubCharge`: one club's attempts, or failed ones only, or every one (newest first, at most 500). */
export const ClubChargeListQuery = z
  .object({
    clubId: z.coerce.number().int().positive().optional(),
    failed: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  })
  .strict();
export type ClubChargeListQuery = z.infer<typeof ClubChargeListQuery>;

/** The club's stored card as its own console shows it (no token). */
export const ClubCardView = z.object({
  lastFour: z.string(),
  brand: z.string(),
  expiry: z.string(),
  savedAt: z.string(),
});

/** `GET /License/Charges`: the club's own charges and its stored card (docs/operator.md). */
export const ClubBilling = z.object({
  card: ClubCardView.nullable(),
  charges: z.array(ClubCharge),
});
export type ClubBilling = z.infer<typeof ClubBilling>;

// ---------------------------------------------------------------- terminal fleet

/** `GET /Operator/Terminal`: every club's terminals, or only those offline, or one class's. */
export const OperatorTerminalQuery = z
  .object({
    offline: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    class: z.enum(CLUB_CLASSES).optional(),
    search: z.string().trim().max(100).optional(),
  })
  .strict();
export type OperatorTerminalQuery = z.infer<typeof OperatorTerminalQuery>;

/** One terminal of the fleet. */
export const OperatorTerminal = z.object({
  id: z.number().int(),
  clubId: z.number().int(),
  externalClubId: z.number().int(),
  clubName: z.string(),
  name: z.string(),
  serial: z.string(),
  approved: z.boolean(),
  /** Linked to a server instance and reported within three heartbeats and a minute. */
  online: z.boolean(),
  /** Last contact with the server (ISO 8601), or null when it never connected. */
  lastConnection: z.string().nullable(),
  /** What its last hello reported, or null. */
  softwareVersion: z.string().nullable(),
  /** The newest published version differs from `softwareVersion` (false when either is unknown). */
  outdated: z.boolean(),
});
export type OperatorTerminal = z.infer<typeof OperatorTerminal>;
