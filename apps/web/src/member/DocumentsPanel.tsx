import { useState } from 'react';
import { downloadDocument, memberApi } from './api';
import { errorText } from './errors';
import { ErrorLine } from './Header';
import { shekels, useT, type T } from './i18n';
import { useLoad } from './useLoad';
import { localDate } from './SubscriptionPanel';

/** A document kind's words (320 tax invoice-receipt, 330 credit invoice, 400 receipt, 410 refund receipt). */
export function kindName(tr: T, kind: number): string {
  const k = `kind${kind}` as 'kind320';
  return ['kind320', 'kind330', 'kind400', 'kind410'].includes(k) ? tr.t(k) : String(kind);
}

/** The tax documents of her purchases: the same PDFs the console prints, downloaded with her token. */
export function DocumentsPanel({ clientId }: { clientId: number }) {
  const tr = useT();
  const docs = useLoad(() => memberApi.documents(clientId), [clientId]);
  const [error, setError] = useState<string | null>(null);
  if (docs.error != null) return <ErrorLine text={errorText(tr, docs.error)} />;
  if (!docs.data) return <p className="m-loading">{tr.t('loading')}</p>;
  const get = (id: number, name: string) =>
    void downloadDocument(id, name).catch((err: unknown) => setError(errorText(tr, err)));
  return (
    <section aria-labelledby="m-docs-title" data-testid="m-documents">
      <h2 id="m-docs-title">{tr.t('documents')}</h2>
      <ErrorLine text={error} />
      {docs.data.length === 0 ? (
        <p>{tr.t('noDocuments')}</p>
      ) : (
        <ul className="m-list">
          {docs.data.map((d) => {
            const title = tr.t('docNumber', { kind: kindName(tr, d.kind), number: d.number });
            return (
              <li key={d.id} className="m-card" data-testid="m-document">
                <div>
                  <strong>{title}</strong>
                  <span>
                    {localDate(d.issuedAt, tr.lang)} · {shekels(d.total, tr.lang)}
                  </span>
                </div>
                <button
                  type="button"
                  className="m-secondary"
                  aria-label={`${tr.t('download')} ${title}`}
                  onClick={() => get(d.id, `${d.kind}-${d.number}.pdf`)}
                >
                  {tr.t('download')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
