import { lazy, Suspense } from 'react';
import { LATEST_TERMS_VERSION } from '@venue/domain';
import { useAuth } from '../auth/AuthProvider';
import { LiveProvider } from '../live/LiveProvider';
import { AppLayout } from './AppLayout';

const TermsGate = lazy(() => import('../../features/terms/TermsGate').then((m) => ({ default: m.TermsGate })));
const PopupMessages = lazy(() =>
  import('../../features/messages/PopupMessages').then((m) => ({ default: m.PopupMessages })),
);

/** Everything a signed-in screen stands in: the live link, the menu and header, the terms and pop-up messages. */
export function SignedInShell({ token }: { token: string }) {
  const { data } = useAuth();
  // Pop-up messages wait until the terms are signed: one dialog at a time (seed 001 §4 terms first).
  const termsDue = data != null && data.user.termsVersion < LATEST_TERMS_VERSION;
  return (
    <LiveProvider token={token}>
      <AppLayout />
      <Suspense fallback={null}>
        <TermsGate />
        {!termsDue && <PopupMessages />}
      </Suspense>
    </LiveProvider>
  );
}
