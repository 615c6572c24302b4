import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnce } from './chunkReload';

/**
 * What a screen shows when it fails to load or render (the router's error
 * element of every route): a translated message with "try again" and "home",
 * in place of the screen, the menu staying. A code file missing after an
 * update reloads the page once first (chunkReload.ts).
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  if (chunk && reloadOnce()) return null;
  return (
    <Result
      status="error"
      title={t(chunk ? 'routeError.newVersion' : 'routeError.title')}
      subTitle={t(chunk ? 'routeError.newVersionHint' : 'routeError.hint')}
      data-testid="route-error"
      extra={[
        <Button key="retry" type="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>,
        <Button key="home" href="/">
          {t('common.home')}
        </Button>,
      ]}
    />
  );
}
