import { useEffect, useState } from 'react';
import type { MemberCheckoutState } from '@venue/domain';
import { downloadDocument, memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine, Header } from './Header';
import { shekels, useT } from './i18n';

/**
 * Back from the provider's hosted page (#/checkout/<code>): how the payment
 * ended (asked again every second while the provider's callback is awaited),
 * and its tax document to download.
 */
export default function CheckoutReturn({ code, onDone }: { code: string; onDone: () => void }) {
  const tr = useT();
  const [state, setState] = useState<MemberCheckoutState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const ask = () =>
      memberApi.checkoutState(code).then(
        (s) => {
          if (!live) return;
          setState(s);
          if (s.status === 'pending') timer = setTimeout(() => void ask(), 1000);
        },
        (err: unknown) => live && setError(errorText(tr, err)),
      );
    void ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [code, tr]);
  return (
    <div className="m-page">
      <Header title={tr.t('checkoutTitle')} />
      <main className="m-main" data-testid="m-checkout">
        <ErrorLine text={error} />
        {!state && !error && <p className="m-loading">{tr.t('loading')}</p>}
        {state && (
          <>
            <p className="m-amount">{shekels(state.amount, tr.lang)}</p>
            <p role="status" data-testid="m-checkout-status" className={state.status === 'paid' ? 'm-ok' : undefined}>
              {state.status === 'paid'
                ? tr.t('checkoutPaid')
                : state.status === 'failed'
                  ? tr.t('checkoutFailed', { reason: state.reason ?? '' })
                  : tr.t('checkoutPending')}
            </p>
            {state.documentId != null && (
              <button
                type="button"
                className="m-primary"
                data-testid="m-checkout-document"
                onClick={() =>
                  void downloadDocument(state.documentId!, `document-${state.documentId}.pdf`).catch((err: unknown) =>
                    setError(errorText(tr, err)),
                  )
                }
              >
                {tr.t('downloadDocument')}
              </button>
            )}
          </>
        )}
        <button type="button" className="m-secondary" onClick={onDone} data-testid="m-checkout-back">
          {tr.t('back')}
        </button>
      </main>
    </div>
  );
}
