import { memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { useT } from './i18n';
import { useLoad } from './useLoad';

/** Entrance status 1 is an entrance, 9999 a payment (domain statuses.ts EntranceStatus); the others were not admitted. */
const APPROVED = 1;
const PAYMENT = 9999;

/** Her own entrances (never another member's), newest first. */
export function EntrancesPanel({ clientId }: { clientId: number }) {
  const tr = useT();
  const list = useLoad(() => memberApi.entrances(clientId), [clientId]);
  if (list.error != null) return <ErrorLine text={errorText(tr, list.error)} />;
  if (!list.data) return <p className="m-loading">{tr.t('loading')}</p>;
  const when = (iso: string) =>
    new Date(iso).toLocaleString(tr.lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section aria-labelledby="m-entrances-title" data-testid="m-entrances">
      <h2 id="m-entrances-title">{tr.t('entrances')}</h2>
      {list.data.length === 0 ? (
        <p>{tr.t('noEntrances')}</p>
      ) : (
        <ul className="m-list">
          {list.data.map((e, i) => (
            <li key={`${e.at}-${i}`} className="m-row-item">
              <span>{when(e.at)}</span>
              <span className={e.status === APPROVED ? 'm-ok' : 'm-muted'}>
                {e.status === APPROVED ? tr.t('entered') : e.status === PAYMENT ? tr.t('payment') : tr.t('refused')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
