import { useState } from 'react';
import type { PreviewDay } from '@venue/domain';
import { memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { shekels, useT, type T } from './i18n';
import { useLoad } from './useLoad';

/** Entrance state 1 is Closed (domain enums EntranceState): a closed window is no opening hour. */
const CLOSED = 1;

/** Minutes after midnight as HH:MM (above 1440: after midnight). */
function hhmm(min: number): string {
  const m = ((min % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A date YYYY-MM-DD as the language writes it. */
export function localDate(iso: string, lang: string): string {
  const [y, mo, d] = iso.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(y, mo - 1, d)).toLocaleDateString(lang === 'he' ? 'he-IL' : 'en-GB', { timeZone: 'UTC' });
}

function Day({ day, tr, first }: { day: PreviewDay; tr: T; first: boolean }) {
  const open = day.windows.filter((w) => w.entranceState !== CLOSED);
  return (
    <li className={first ? 'm-day m-today' : 'm-day'}>
      <div className="m-day-name">
        <strong>{first ? tr.t('today') : tr.weekday(day.weekday)}</strong>
        <span>{localDate(day.date, tr.lang)}</span>
        {day.holidays.length > 0 && <span className="m-holiday">{day.holidays.join(', ')}</span>}
      </div>
      <div className="m-day-hours" dir="ltr">
        {open.length === 0 ? (
          <span lang={tr.lang}>{tr.t('closedDay')}</span>
        ) : (
          open.map((w) => (
            <span key={`${w.from}-${w.rowId}`}>
              {hhmm(w.from)}–{hhmm(w.to)}
            </span>
          ))
        )}
      </div>
    </li>
  );
}

/** The subscription: group, end date, days left, renewal, and this week's real opening hours. */
export function SubscriptionPanel({ clientId }: { clientId: number }) {
  const tr = useT();
  const sub = useLoad(() => memberApi.subscription(clientId, tr.lang), [clientId, tr.lang]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (sub.error != null) return <ErrorLine text={errorText(tr, sub.error)} />;
  const s = sub.data;
  if (!s) return <p className="m-loading">{tr.t('loading')}</p>;
  const unlimited = s.subscriptionEnd != null && s.subscriptionEnd >= '2100-01-01';
  const renew = async () => {
    setBusy(true);
    setError(null);
    try {
      const started = await memberApi.checkout({ clientId, kind: 'renew' }, tr.lang);
      location.assign(started.url);
    } catch (err) {
      setError(errorText(tr, err));
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="m-sub-title" data-testid="m-subscription">
      <h2 id="m-sub-title">{tr.t('subscription')}</h2>
      <dl className="m-facts">
        <div>
          <dt>{tr.t('group')}</dt>
          <dd data-testid="m-group">{s.groupName ?? '—'}</dd>
        </div>
        <div>
          <dt>{tr.t('subscriptionEnd')}</dt>
          <dd data-testid="m-sub-end">
            {s.subscriptionEnd == null
              ? tr.t('noSubscription')
              : unlimited
                ? tr.t('unlimited')
                : localDate(s.subscriptionEnd, tr.lang)}
          </dd>
        </div>
      </dl>
      {s.daysLeft != null && !unlimited && (
        <p className="m-note">{s.daysLeft > 0 ? tr.t('daysLeft', { n: s.daysLeft }) : tr.t('ended')}</p>
      )}
      {s.renewPrice != null && (
        <button type="button" className="m-primary" disabled={busy} onClick={() => void renew()}>
          {tr.t('renew', { amount: shekels(s.renewPrice, tr.lang) })}
        </button>
      )}
      <ErrorLine text={error} />
      <h2>{tr.t('weekHours')}</h2>
      {s.week.length === 0 ? (
        <p>{tr.t('noGroup')}</p>
      ) : (
        <>
          <p className="m-note">{tr.t('weekAt', { place: s.location })}</p>
          <ol className="m-week" data-testid="m-week">
            {s.week.map((d, i) => (
              <Day key={d.date} day={d} tr={tr} first={i === 0} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
