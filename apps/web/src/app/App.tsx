import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { i18n } from './i18n/i18n';
import { LocaleProvider } from './i18n/LocaleProvider';
import { router } from './router';
import { ApiError } from './api/apiClient';

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

/** Providers, outermost first: i18n + direction, query cache, router (which holds the session). */
export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <LocaleProvider>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </LocaleProvider>
    </I18nextProvider>
  );
}
