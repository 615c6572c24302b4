import { sql, type SQL } from 'drizzle-orm';

/**
 * What a booking counts as in the booking reports and in what retention keeps of it
 * (docs/appointments.md "Reports"): one set of rules for the live rows (`bookings b`) and for
 * `booking_counts`, so that a period before and after retention adds up the same way.
 *
 * - **booked**: held a room — every state but `cancelled` and an unanswered `offered`;
 * - **attended**: she came — `checkedIn`, `preparing`, `immersed`, `done`;
 * - **no-show**: `noShow`;
 * - **cancelled**: a booking cancelled; an offer from the waitlist that ended or was declined
 *   (cancelled with its `offer_expires_at` still set) was never a booking and is not counted;
 * - **minutes**: service minutes (start to end, without the cleaning buffer) of a booked one;
 * - **from the waitlist**: booked and `source = 'waitlist'`.
 */
export const BOOKED = (b = 'b'): SQL => sql.raw(`${b}.status not in ('cancelled', 'offered')`);
export const ATTENDED = (b = 'b'): SQL => sql.raw(`${b}.status in ('checkedIn', 'preparing', 'immersed', 'done')`);
export const NO_SHOW = (b = 'b'): SQL => sql.raw(`${b}.status = 'noShow'`);
export const CANCELLED = (b = 'b'): SQL => sql.raw(`(${b}.status = 'cancelled' and ${b}.offer_expires_at is null)`);
export const BOOKED_MINUTES = (b = 'b'): SQL =>
  sql.raw(
    `case when ${b}.status not in ('cancelled', 'offered') then (extract(epoch from (${b}.ends_at - ${b}.starts_at)) / 60)::int else 0 end`,
  );
export const FROM_WAITLIST = (b = 'b'): SQL =>
  sql.raw(`(${b}.source = 'waitlist' and ${b}.status not in ('cancelled', 'offered'))`);

/**
 * A waitlist entry (`booking_waitlist w`) in the waitlist report and its retained counts:
 * **joined** every entry; **offered** a freed slot was offered to her (`booking_id` set);
 * **accepted** she took it (`booked`); **expired** the offer's hold passed unanswered.
 * An entry that was skipped (her group may not book the room), withdrawn or whose offer was
 * declined counts as joined (and offered, when it was) only.
 */
export const W_OFFERED = (w = 'w'): SQL => sql.raw(`${w}.booking_id is not null`);
export const W_ACCEPTED = (w = 'w'): SQL => sql.raw(`${w}.status = 'booked'`);
export const W_EXPIRED = (w = 'w'): SQL => sql.raw(`${w}.status = 'expired'`);

/** The club's IANA zone as SQL (the club's location, default Asia/Jerusalem), for a `clubs c` row. */
export const CLUB_ZONE = (c = 'c'): SQL => sql.raw(`coalesce(${c}.location->>'timeZone', 'Asia/Jerusalem')`);
