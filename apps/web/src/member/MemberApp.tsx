import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { applyLang, LangContext, savedLang, translator, type Lang } from './i18n';
import { setSignedOutHandler, storedToken, storeToken } from './api';
import { SignIn } from './SignIn';

const Home = lazy(() => import('./Home'));
const CheckoutReturn = lazy(() => import('./CheckoutReturn'));

/** The hash route: `#/checkout/<code>` after the provider's page, else the home screen. */
function checkoutOfHash(): string | null {
  const m = /^#\/checkout\/([\w-]{16,64})$/.exec(location.hash);
  return m ? m[1] : null;
}

/**
 * The member app's shell: the language (Hebrew by default, right to left),
 * the session (a member token in this browser) and which screen shows —
 * sign-in, the home screen, or the return from the payment page.
 */
export function MemberApp() {
  const [lang, setLangState] = useState<Lang>(savedLang);
  const [signedIn, setSignedIn] = useState(() => storedToken() != null);
  const [checkout, setCheckout] = useState(checkoutOfHash);
  const tr = useMemo(() => translator(lang), [lang]);

  useEffect(() => applyLang(lang), [lang]);
  useEffect(() => {
    setSignedOutHandler(() => setSignedIn(false));
    const onHash = () => setCheckout(checkoutOfHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const ctx = useMemo(() => ({ tr, setLang: setLangState }), [tr]);
  const signOut = () => {
    storeToken(null);
    setSignedIn(false);
  };
  const loading = <p className="m-loading">{tr.t('loading')}</p>;
  let screen;
  if (!signedIn) screen = <SignIn onSignedIn={() => setSignedIn(true)} />;
  else if (checkout)
    screen = (
      <CheckoutReturn
        code={checkout}
        onDone={() => {
          history.replaceState(null, '', '/m/');
          setCheckout(null);
        }}
      />
    );
  else screen = <Home onSignOut={signOut} />;
  return (
    <LangContext.Provider value={ctx}>
      <Suspense fallback={loading}>{screen}</Suspense>
    </LangContext.Provider>
  );
}
