import { useState } from 'react';
import type { MemberBooking, MemberBookingRoom, MemberBookingSlot, MemberGateCode } from '@venue/domain';
import { MemberApiError, memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { shekels, useT, type T } from './i18n';
import { useLoad } from './useLoad';
import { bookingWords, fill, type BookingWords } from './booking-words';

type Kind = MemberBookingRoom['kind'];

/** An instant as the club's clock shows it: the weekday, date and time, or the time only. */
function at(iso: string, lang: string, timeZone: string, timeOnly = false): string {
  return new Date(iso).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    ...(timeOnly ? {} : { weekday: 'long', day: 'numeric', month: 'long' }),
  });
}

/** A booking refusal in the booking words when they have it, else the app's words. */
function failText(tr: T, w: BookingWords, err: unknown): string {
  if (err instanceof MemberApiError) {
    const key = err.fields[0]?.message ?? err.code;
    if (w.errors[key]) return w.errors[key];
  }
  return errorText(tr, err);
}

/** A unique key per booking attempt: a repeated tap answers the first booking. */
const newKey = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** What a screen action reports: a note on success, else the refusal's words. */
type Act = (work: () => Promise<string>) => Promise<void>;

/**
 * The member's "Book" tab (issue 38; docs/members.md "Booking"): choose a date, a room kind and a
 * free time, confirm with the fee shown (paid from her balance), and her own upcoming bookings with
 * cancelling (up to the club's cutoff), taking an offered slot and the gate's one-time code.
 */
export default function BookingPanel() {
  const tr = useT();
  const w = bookingWords(tr.lang);
  const mine = useLoad(() => memberApi.bookings(), []);
  const rooms = useLoad(() => memberApi.bookingRooms(), []);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (mine.error != null || rooms.error != null) return <ErrorLine text={errorText(tr, mine.error ?? rooms.error)} />;
  const m = mine.data;
  if (!m || !rooms.data) return <p className="m-loading">{tr.t('loading')}</p>;
  const tz = m.timeZone;

  const act: Act = async (work) => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      setNote(await work());
      mine.reload();
    } catch (err) {
      setError(failText(tr, w, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="m-book-title" data-testid="m-booking">
      <h2 id="m-book-title">{w.bookTitle}</h2>
      {rooms.data.length === 0 ? (
        <p data-testid="m-no-rooms">{w.noRooms}</p>
      ) : (
        <BookForm rooms={rooms.data} today={m.today} lastDate={m.lastDate} tz={tz} busy={busy} act={act} version={m} />
      )}
      <ErrorLine text={error} />
      {note && (
        <p className="m-ok" role="status" data-testid="m-book-note">
          {note}
        </p>
      )}
      <h2>{w.myBookings}</h2>
      {m.bookings.length === 0 && m.waitlist.length === 0 && <p data-testid="m-no-bookings">{w.noBookings}</p>}
      <ul className="m-list">
        {m.bookings.map((b) => (
          <BookingCard
            key={b.id}
            b={b}
            tz={tz}
            cutoff={m.cancelCutoffMinutes}
            busy={busy}
            onCancel={() =>
              act(async () => {
                const r = await memberApi.cancelBooking(b.id);
                return r.refunded > 0 ? fill(w.refunded, { amount: shekels(r.refunded, tr.lang) }) : w.cancelled;
              })
            }
            onAccept={() =>
              act(async () => {
                await memberApi.acceptOffer(b.id);
                return w.booked;
              })
            }
          />
        ))}
        {m.waitlist.map((x) => (
          <li key={`w${x.id}`} className="m-card" data-testid="m-waiting">
            {fill(w.waiting, { kind: w[x.kind], date: x.date })}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Choosing the date, the room kind and a free time, and the confirmation with the fee. */
function BookForm(props: {
  rooms: MemberBookingRoom[];
  today: string;
  lastDate: string;
  tz: string;
  busy: boolean;
  act: Act;
  /** Her bookings as last read: the free times are read again when they change. */
  version: unknown;
}) {
  const { rooms, tz, busy, act } = props;
  const tr = useT();
  const w = bookingWords(tr.lang);
  const [date, setDate] = useState(props.today);
  const [kind, setKind] = useState<Kind>(rooms[0].kind);
  const [pick, setPick] = useState<MemberBookingSlot | null>(null);
  const [key, setKey] = useState(newKey);
  const slots = useLoad(() => memberApi.bookingSlots(date, kind), [date, kind, props.version]);
  const book = (s: MemberBookingSlot) =>
    act(async () => {
      try {
        await memberApi.book({ resourceId: s.resourceId, startsAt: s.startsAt, idempotencyKey: key });
      } catch (err) {
        if (err instanceof MemberApiError && err.code === 'SLOT_TAKEN') slots.reload();
        throw err;
      }
      setPick(null);
      setKey(newKey());
      return w.booked;
    });
  return (
    <>
      <label htmlFor="m-book-date">{w.date}</label>
      <input
        id="m-book-date"
        type="date"
        data-testid="m-book-date"
        min={props.today}
        max={props.lastDate}
        value={date}
        onChange={(e) => {
          if (e.target.value) setDate(e.target.value);
          setPick(null);
        }}
      />
      <fieldset className="m-choices">
        <legend>{w.roomKind}</legend>
        {rooms.map((r) => (
          <button
            key={r.kind}
            type="button"
            className="m-choice"
            aria-pressed={r.kind === kind}
            data-testid={`m-kind-${r.kind}`}
            onClick={() => {
              setKind(r.kind);
              setPick(null);
            }}
          >
            <span>{w[r.kind]}</span>
            <small>
              {fill(w.minutes, { n: r.serviceMinutes })} · {r.fee > 0 ? shekels(r.fee, tr.lang) : w.included}
            </small>
          </button>
        ))}
      </fieldset>
      <TimeChoices
        slots={slots}
        pick={pick}
        onPick={setPick}
        tz={tz}
        busy={busy}
        onWaitlist={() =>
          void act(async () => {
            await memberApi.joinWaitlist({ date, kind });
            return w.waitlisted;
          })
        }
      />
      {pick && (
        <div className="m-confirm" data-testid="m-confirm">
          <h3>{w.confirmTitle}</h3>
          <p>
            <strong>{w[pick.kind]}</strong>
            <br />
            {at(pick.startsAt, tr.lang, tz)}
            <br />
            <span data-testid="m-confirm-fee">
              {pick.fee > 0 ? fill(w.fee, { amount: shekels(pick.fee, tr.lang) }) : w.included}
            </span>
          </p>
          <button
            type="button"
            className="m-primary"
            disabled={busy}
            data-testid="m-book"
            onClick={() => void book(pick)}
          >
            {w.confirm}
          </button>
        </div>
      )}
    </>
  );
}

/** The free times of the day as buttons; none free: the waitlist. */
function TimeChoices(props: {
  slots: { data: MemberBookingSlot[] | null; error: unknown };
  pick: MemberBookingSlot | null;
  onPick: (s: MemberBookingSlot) => void;
  tz: string;
  busy: boolean;
  onWaitlist: () => void;
}) {
  const { slots, pick, tz } = props;
  const tr = useT();
  const w = bookingWords(tr.lang);
  return (
    <fieldset className="m-choices">
      <legend>{w.time}</legend>
      {slots.error != null && <ErrorLine text={failText(tr, w, slots.error)} />}
      {slots.data && slots.data.length === 0 && (
        <>
          <p data-testid="m-no-slots">{w.noSlots}</p>
          <button
            type="button"
            className="m-secondary"
            disabled={props.busy}
            data-testid="m-waitlist"
            onClick={props.onWaitlist}
          >
            {w.waitlist}
          </button>
        </>
      )}
      <div className="m-slots">
        {slots.data?.map((s) => (
          <button
            key={s.startsAt}
            type="button"
            aria-pressed={pick?.startsAt === s.startsAt}
            data-testid="m-slot"
            onClick={() => props.onPick(s)}
          >
            <span dir="ltr">{at(s.startsAt, tr.lang, tz, true)}</span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** One of her bookings: when and what, its state, and what she may do with it now. */
function BookingCard(props: {
  b: MemberBooking;
  tz: string;
  cutoff: number;
  busy: boolean;
  onCancel: () => Promise<void>;
  onAccept: () => Promise<void>;
}) {
  const { b, tz, busy } = props;
  const tr = useT();
  const w = bookingWords(tr.lang);
  const [asking, setAsking] = useState(false);
  const [code, setCode] = useState<MemberGateCode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const showCode = async () => {
    setError(null);
    try {
      setCode(await memberApi.gateCode(b.id));
    } catch (err) {
      setError(failText(tr, w, err));
    }
  };
  const live = b.status === 'booked' || b.status === 'checkedIn';
  return (
    <li className="m-card" data-testid="m-my-booking">
      <div>
        <strong>{w[b.kind]}</strong>
        <span>{at(b.startsAt, tr.lang, tz)}</span>
        <span data-testid="m-booking-status">
          {w.status[b.status]}
          {b.fee > 0 ? ` · ${shekels(b.fee, tr.lang)}` : ''}
        </span>
      </div>
      {b.status === 'offered' && b.offerExpiresAt && (
        <>
          <p className="m-ok">{fill(w.offered, { when: at(b.offerExpiresAt, tr.lang, tz, true) })}</p>
          <button
            type="button"
            className="m-primary"
            disabled={busy}
            data-testid="m-accept"
            onClick={() => void props.onAccept()}
          >
            {w.accept}
          </button>
        </>
      )}
      {live && (
        <>
          {code ? (
            <div className="m-gate-code" data-testid="m-gate-code">
              <span>{w.gateCode}</span>
              <strong dir="ltr" data-testid="m-gate-code-value">
                {code.code}
              </strong>
              <small>
                {fill(w.gateCodeValid, {
                  from: at(code.validFrom, tr.lang, tz, true),
                  until: at(code.validUntil, tr.lang, tz, true),
                })}
              </small>
            </div>
          ) : (
            <button type="button" className="m-secondary" data-testid="m-show-code" onClick={() => void showCode()}>
              {w.gateCodeShow}
            </button>
          )}
        </>
      )}
      <ErrorLine text={error} />
      {(b.status === 'booked' || b.status === 'offered') &&
        (b.cancelUntil ? (
          asking ? (
            <div className="m-row" role="group" aria-label={w.cancelAsk}>
              <button
                type="button"
                className="m-secondary"
                disabled={busy}
                data-testid="m-cancel-yes"
                onClick={() => void props.onCancel().then(() => setAsking(false))}
              >
                {w.cancelYes}
              </button>
              <button type="button" className="m-secondary" onClick={() => setAsking(false)}>
                {w.cancelNo}
              </button>
            </div>
          ) : (
            <>
              <button type="button" className="m-secondary" data-testid="m-cancel" onClick={() => setAsking(true)}>
                {w.cancel}
              </button>
              <small className="m-note">{fill(w.cancelUntil, { when: at(b.cancelUntil, tr.lang, tz) })}</small>
            </>
          )
        ) : (
          <small className="m-note" data-testid="m-cancel-closed">
            {fill(w.cancelClosed, { n: props.cutoff })}
          </small>
        ))}
    </li>
  );
}
