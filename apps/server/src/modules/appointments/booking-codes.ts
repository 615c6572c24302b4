import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { MemberGateCode } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { bookingGateCodes, bookings } from '../../db/schema.js';
import { dataKeys, mac } from '../../lib/crypto.js';
import { clockNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { pgError } from '../../lib/validation.js';
import { readBookingSettings } from './appointments.service.js';

/*
 * The member app's one-time gate code (issue 38; docs/appointments.md "The one-time code"). The member
 * asks for a code for one of her bookings; the server answers it once and keeps only its keyed HMAC.
 * Presented at a terminal as a `code` identification, it identifies her only within the booking's
 * gate window and is spent by the admission it gives; the gate then decides by its usual rules
 * (the booking-required rule included).
 */

/** A one-time booking code: `*` and six digits (a keypad's star key; a QR holds the same text). */
export const BOOKING_CODE = /^\*\d{6}$/;

/** Whether a `code` identification's value is a one-time booking code (never a client code or number). */
export const isBookingCode = (value: string): boolean => BOOKING_CODE.test(value);

/** States of a booking whose code may admit (an offer not taken, a no-show, a cancellation never do). */
const ADMITTING = new Set(['booked', 'checkedIn', 'preparing', 'immersed']);

async function hashOf(db: Db | Tx, clubId: number, code: string): Promise<string> {
  return mac(await dataKeys(db), code, `club:${clubId}:booking-code`);
}

/**
 * Issues a new one-time code for the client's booking, replacing an earlier one: `*` + 6 digits from
 * crypto.randomInt, valid from `gateBeforeMinutes` before the start to `gateAfterMinutes` after it
 * (the club's booking settings). Returns the code (shown once) and its window (ISO instants).
 * @throws NOT_FOUND (not a booking of this client), BOOKING_CLOSED (not booked, or its window passed)
 */
export async function issueGateCode(
  db: Db,
  clubId: number,
  clientId: number,
  bookingId: number,
  now = clockNow(),
): Promise<MemberGateCode> {
  const [b] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), eq(bookings.id, bookingId), eq(bookings.clientId, clientId)));
  if (!b) throw notFound('booking');
  const s = await readBookingSettings(db, clubId);
  const validFrom = new Date(b.startsAt.getTime() - s.gateBeforeMinutes * 60_000);
  const validUntil = new Date(b.startsAt.getTime() + s.gateAfterMinutes * 60_000);
  if (!ADMITTING.has(b.status) || validUntil.getTime() <= now.getTime()) {
    throw new AppError('BOOKING_CLOSED', 'booking closed');
  }
  for (let attempt = 0; ; attempt++) {
    const code = `*${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    const codeHash = await hashOf(db, clubId, code);
    try {
      await db.transaction(async (tx) => {
        await tx
          .delete(bookingGateCodes)
          .where(and(eq(bookingGateCodes.clubId, clubId), eq(bookingGateCodes.bookingId, b.id)));
        await tx
          .insert(bookingGateCodes)
          .values({ clubId, bookingId: b.id, clientId, codeHash, validFrom, validUntil });
      });
      return { code, validFrom: validFrom.toISOString(), validUntil: validUntil.toISOString() };
    } catch (err) {
      // Another live booking's code has the same six digits: draw again.
      if (pgError(err).constraint !== 'booking_gate_codes_hash' || attempt >= 20) throw err;
    }
  }
}

/** What a presented one-time code is: it admits (its client; claimed) or why it does not. */
export type GateCodeCheck =
  | { kind: 'ok'; clientId: number; codeId: number }
  | { kind: 'unknown'; clientId: null }
  | { kind: 'used' | 'expired'; clientId: number };

/**
 * Reads a presented one-time code at `at` and, unless `peek`, claims it (spent at `at`, by one
 * guarded UPDATE, so of two terminals presenting it at once only one gets `ok`). Unknown → unknown;
 * spent → used; its booking cancelled, not taken or past, or `at` outside its window → expired.
 */
export async function claimGateCode(
  db: Db,
  clubId: number,
  value: string,
  at: Date,
  peek = false,
): Promise<GateCodeCheck> {
  const codeHash = await hashOf(db, clubId, value);
  const [row] = await db
    .select({ c: bookingGateCodes, status: bookings.status })
    .from(bookingGateCodes)
    .innerJoin(bookings, and(eq(bookings.clubId, bookingGateCodes.clubId), eq(bookings.id, bookingGateCodes.bookingId)))
    .where(and(eq(bookingGateCodes.clubId, clubId), eq(bookingGateCodes.codeHash, codeHash)));
  if (!row) return { kind: 'unknown', clientId: null };
  const { c } = row;
  if (c.spentAt) return { kind: 'used', clientId: c.clientId };
  if (!ADMITTING.has(row.status) || at < c.validFrom || at > c.validUntil) {
    return { kind: 'expired', clientId: c.clientId };
  }
  if (peek) return { kind: 'ok', clientId: c.clientId, codeId: c.id };
  const [claimed] = await db
    .update(bookingGateCodes)
    .set({ spentAt: at })
    .where(and(eq(bookingGateCodes.clubId, clubId), eq(bookingGateCodes.id, c.id), isNull(bookingGateCodes.spentAt)))
    .returning({ id: bookingGateCodes.id });
  return claimed ? { kind: 'ok', clientId: c.clientId, codeId: c.id } : { kind: 'used', clientId: c.clientId };
}

/** Gives a claimed code back when the gate refused its holder after all (any rule but the code's own). */
export async function releaseGateCode(db: Db, clubId: number, codeId: number): Promise<void> {
  await db
    .update(bookingGateCodes)
    .set({ spentAt: sql`null` })
    .where(and(eq(bookingGateCodes.clubId, clubId), eq(bookingGateCodes.id, codeId)));
}
