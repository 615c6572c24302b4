import { useState, type FormEvent } from 'react';
import { memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { shekels, useT } from './i18n';
import { useLoad } from './useLoad';
import { localDate } from './SubscriptionPanel';

/**
 * Balance and open debts; pay a debt or load the balance on the clearing
 * provider's hosted page (the browser leaves for it and comes back to
 * #/checkout/<code>).
 */
export function MoneyPanel({ clientId }: { clientId: number }) {
  const tr = useT();
  const money = useLoad(() => memberApi.money(clientId), [clientId]);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (money.error != null) return <ErrorLine text={errorText(tr, money.error)} />;
  const m = money.data;
  if (!m) return <p className="m-loading">{tr.t('loading')}</p>;

  const start = async (body: { kind: 'debt' | 'load'; debtId?: number; amount?: number }) => {
    setBusy(true);
    setError(null);
    try {
      const started = await memberApi.checkout({ clientId, ...body }, tr.lang);
      location.assign(started.url);
    } catch (err) {
      setError(errorText(tr, err));
      setBusy(false);
    }
  };
  const load = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(amount.replace(',', '.'));
    if (!Number.isFinite(n) || n <= 0) return setError(tr.error('invalidAmount'));
    void start({ kind: 'load', amount: Math.round(n * 100) });
  };
  return (
    <section aria-labelledby="m-money-title" data-testid="m-money">
      <h2 id="m-money-title">{tr.t('money')}</h2>
      <dl className="m-facts">
        <div>
          <dt>{tr.t('balance')}</dt>
          <dd data-testid="m-balance">{shekels(m.balance, tr.lang)}</dd>
        </div>
        {m.tempBalance !== 0 && (
          <div>
            <dt>{tr.t('tempBalance')}</dt>
            <dd>{shekels(m.tempBalance, tr.lang)}</dd>
          </div>
        )}
      </dl>
      <h2>{tr.t('debts')}</h2>
      {m.debts.length === 0 ? (
        <p data-testid="m-no-debts">{tr.t('noDebts')}</p>
      ) : (
        <ul className="m-list">
          {m.debts.map((d) => (
            <li key={d.id} className="m-card" data-testid="m-debt">
              <div>
                <strong>{shekels(d.open, tr.lang)}</strong>
                <span>{d.description || localDate(d.createdAt, tr.lang)}</span>
              </div>
              <button
                type="button"
                className="m-primary"
                disabled={busy}
                data-testid="m-pay-debt"
                onClick={() => void start({ kind: 'debt', debtId: d.id })}
              >
                {tr.t('pay', { amount: shekels(d.open, tr.lang) })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine text={error} />
      <h2>{tr.t('loadTitle')}</h2>
      <form onSubmit={load} className="m-inline-form" noValidate>
        <label htmlFor="m-load-amount">{tr.t('amountShekels')}</label>
        <input
          id="m-load-amount"
          inputMode="decimal"
          dir="ltr"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className="m-primary" disabled={busy}>
          {tr.t('load')}
        </button>
      </form>
      <p className="m-note">{tr.t('payNote')}</p>
    </section>
  );
}
