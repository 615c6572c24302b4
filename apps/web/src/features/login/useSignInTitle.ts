import { useTranslation } from 'react-i18next';
import { pageTitle, useDocumentTitle } from '../../shared/pageTitle';

/** The sign-in page's title: `<sign in> — <app>`. */
export function useSignInTitle(): void {
  const { t } = useTranslation();
  useDocumentTitle(pageTitle(t('login.title'), t('app.title')));
}
