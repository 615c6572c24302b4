import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../platform/i18n/i18n';
import type { ReactNode } from 'react';
import { useDocumentLanguage } from '../platform/i18n/language';
import { router } from './router';
import { ApiError } from '../platform/api/apiClient';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Retry network hiccups, never a client error (4xx).
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

/** The document's lang and dir follow the interface language on every page, the sign-in page included. */
function DocumentLanguage({ children }: { children: ReactNode }) {
  useDocumentLanguage();
  return children;
}

/**
 * Providers, outermost first: i18n + direction, query cache, router (which
 * holds the session). The UI library's provider (LocaleProvider: antd theme,
 * locale, toasts) wraps the signed-in frame only, so the sign-in page loads
 * without antd (docs/operations.md "Console files").
 */
export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <DocumentLanguage>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </DocumentLanguage>
    </I18nextProvider>
  );
}
