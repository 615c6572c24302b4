import { lazy, Suspense } from 'react';
import { LiveProvider } from '../live/LiveProvider';
import { AppLayout } from './AppLayout';

const TermsGate = lazy(() => import('../../features/terms/TermsGate').then((m) => ({ default: m.TermsGate })));
const PopupMessages = lazy(() =>
  import('../../features/messages/PopupMessages').then((m) => ({ default: m.PopupMessages })),
);

/** Everything a signed-in screen stands in: the live link, the menu and header, the terms and pop-up messages. */
export function SignedInShell({ token }: { token: string }) {
  return (
    <LiveProvider token={token}>
      <AppLayout />
      <Suspense fallback={null}>
        <TermsGate />
        <PopupMessages />
      </Suspense>
    </LiveProvider>
  );
}
