import { createContext, useContext, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnce } from './chunkReload';
import { CloseCircleFilledIcon, LightIcon } from '../shared/lightIcons';
import '../shared/light.css';

/** What an error screen shows: a translated title and hint, "try again" (reload) and "home". */
export interface ErrorViewProps {
  title: string;
  subTitle: string;
  onRetry: () => void;
  retryText: string;
  homeText: string;
}

/**
 * The error screen's look inside the signed-in frame: antd's Result
 * (RouteResults.tsx `RichErrorView`, provided by SignedInShell). Outside it
 * (the sign-in page, or before the frame loaded) RouteError draws the same
 * screen without antd, so it works even when no further code file can load.
 */
export const ErrorViewContext = createContext<ComponentType<ErrorViewProps> | null>(null);

/**
 * What a screen shows when it fails to load or render (the router's error
 * element of every route): a translated message with "try again" and "home",
 * in place of the screen, the menu staying. A code file missing after an
 * update reloads the page once first (chunkReload.ts).
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const Rich = useContext(ErrorViewContext);
  const chunk = isChunkLoadError(error);
  if (chunk && reloadOnce()) return null;
  const props: ErrorViewProps = {
    title: t(chunk ? 'routeError.newVersion' : 'routeError.title'),
    subTitle: t(chunk ? 'routeError.newVersionHint' : 'routeError.hint'),
    onRetry: () => window.location.reload(),
    retryText: t('common.retry'),
    homeText: t('common.home'),
  };
  if (Rich) return <Rich {...props} />;
  return (
    <div className="lt-result" data-testid="route-error">
      <div className="lt-result-icon">
        <LightIcon icon={CloseCircleFilledIcon} />
      </div>
      <h1 className="lt-result-title">{props.title}</h1>
      <div className="lt-result-subtitle">{props.subTitle}</div>
      <div className="lt-result-extra">
        <button type="button" className="lt-btn lt-btn-primary" onClick={props.onRetry}>
          {props.retryText}
        </button>
        <a className="lt-btn" href="/">
          {props.homeText}
        </a>
      </div>
    </div>
  );
}
