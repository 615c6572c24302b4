import { lazy, Suspense } from 'react';
import { LATEST_TERMS_VERSION } from '@venue/domain';
import { useAuth } from '../../platform/auth/AuthProvider';
import { LowLicenseToast } from './LowLicenseToast';
import { LocaleProvider } from '../../platform/i18n/LocaleProvider';
import { ToastProvider } from '../../shared/toast/ToastProvider';
import { LiveProvider } from '../../platform/live/LiveProvider';
import { RichErrorView } from '../RouteResults';
import { ErrorViewContext } from '../RouteError';
import { AppLayout } from './AppLayout';

const TermsGate = lazy(() => import('../../features/terms/TermsGate').then((m) => ({ default: m.TermsGate })));
const PopupMessages = lazy(() =>
  import('../../features/messages/PopupMessages').then((m) => ({ default: m.PopupMessages })),
);

/**
 * Everything a signed-in screen stands in: the UI library's provider (theme,
 * locale, toasts), the live link, the menu and header, the terms and pop-up
 * messages, the low-license toast, and antd's error screen for a screen that
 * fails (RouteError).
 */
export function SignedInShell({ token }: { token: string }) {
  const { data } = useAuth();
  // Pop-up messages wait until the terms are signed: one dialog at a time (seed 001 §4 terms first).
  // The terms' code (dialog, checkbox, signature pad) loads only for a user who must sign them.
  const termsDue = data != null && data.user.termsVersion < LATEST_TERMS_VERSION;
  return (
    <LocaleProvider>
      <ToastProvider>
        <ErrorViewContext.Provider value={RichErrorView}>
          <LiveProvider token={token}>
            <AppLayout />
            <LowLicenseToast />
            <Suspense fallback={null}>{termsDue ? <TermsGate /> : <PopupMessages />}</Suspense>
          </LiveProvider>
        </ErrorViewContext.Provider>
      </ToastProvider>
    </LocaleProvider>
  );
}
