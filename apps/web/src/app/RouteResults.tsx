import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ErrorViewProps } from './RouteError';

/** RouteError's screen inside the signed-in frame, with antd's Result (SignedInShell provides it). */
export function RichErrorView({ title, subTitle, onRetry, onHome, retryText, homeText }: ErrorViewProps) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={subTitle}
      data-testid="route-error"
      extra={[
        <Button key="retry" type="primary" onClick={onRetry}>
          {retryText}
        </Button>,
        <Button key="home" onClick={onHome}>
          {homeText}
        </Button>,
      ]}
    />
  );
}

/** A screen the navigation rule does not allow the user (router Guard). */
export function NotAuthorized() {
  const { t } = useTranslation();
  return <Result status="403" title={t('errors.NOT_AUTHORIZED')} />;
}

/** An address that is no screen of the console. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('errors.NOT_FOUND')}
      extra={
        <Button type="primary" href="/">
          {t('common.home')}
        </Button>
      }
    />
  );
}
