import { useContext } from 'react';
import { LangContext } from './i18n';

/** The top bar: the app's (or club's) name and the language switch; `children` adds actions. */
export function Header({ title, children }: { title: string; children?: React.ReactNode }) {
  const { tr, setLang } = useContext(LangContext);
  const other = tr.lang === 'he' ? 'en' : 'he';
  return (
    <header className="m-header">
      <h1>{title}</h1>
      <div className="m-header-actions">
        <button
          type="button"
          className="m-link"
          lang={other}
          aria-label={tr.t('languageLabel')}
          data-testid="m-lang"
          onClick={() => setLang(other)}
        >
          {tr.t('language')}
        </button>
        {children}
      </div>
    </header>
  );
}

/** An error line announced to screen readers. */
export function ErrorLine({ text, id }: { text: string | null; id?: string }) {
  return text ? (
    <p className="m-error" role="alert" id={id}>
      {text}
    </p>
  ) : null;
}
