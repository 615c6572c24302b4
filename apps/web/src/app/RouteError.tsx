import { createContext, useContext, useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import {
  browserReloadDeps,
  isChunkLoadError,
  recoverFromChunkError,
  reloadWhenServerAnswers,
  type ChunkRecovery,
} from './chunkReload';
import { CloseCircleFilledIcon, LightIcon } from '../shared/lightIcons';
import '../shared/light.css';

/** What an error screen shows: a translated title and hint, "try again" (reload) and "home". */
export interface ErrorViewProps {
  title: string;
  subTitle: string;
  onRetry: () => void;
  /** To the start screen: a page load too, so it waits for the server like "try again". */
  onHome: () => void;
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
 * in place of the screen, the menu staying. A code file that did not load
 * is recovered first (chunkReload.ts): while the server does not answer, a
 * "reconnecting" notice stays in place of the screen and the page reloads
 * when it answers; a file missing after an update reloads the page once.
 * "Try again" too reloads only when the server answers.
 */
export function RouteError() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const [state, setState] = useState<ChunkRecovery | 'checking' | null>(chunk ? 'checking' : null);
  useEffect(() => (chunk ? recoverFromChunkError(setState) : undefined), [chunk]);
  if (state === 'checking' || state === 'reloading') return null;
  if (state === 'reconnecting') return <Reconnecting />;
  return <ErrorView chunk={chunk} />;
}

/** The screen's place while the server does not answer: the console stays, and reloads when it answers. */
function Reconnecting() {
  const { t } = useTranslation();
  return (
    <div className="lt-result" role="status" data-testid="route-reconnecting">
      <div className="lt-result-title">{t('routeError.reconnecting')}</div>
      <div className="lt-result-subtitle">{t('routeError.reconnectingHint')}</div>
    </div>
  );
}

function ErrorView({ chunk }: { chunk: boolean }) {
  const { t } = useTranslation();
  const Rich = useContext(ErrorViewContext);
  // "Try again": a reload once the server answers (at once when it does); meanwhile, reconnecting.
  const [retry, setRetry] = useState<{ to: 'here' | 'home'; down: boolean } | null>(null);
  const to = retry?.to;
  useEffect(() => {
    if (!to) return;
    const load = to === 'home' ? () => window.location.assign('/') : () => window.location.reload();
    return reloadWhenServerAnswers(() => setRetry({ to, down: true }), { ...browserReloadDeps(), reload: load });
  }, [to]);
  if (retry?.down) return <Reconnecting />;
  const props: ErrorViewProps = {
    title: t(chunk ? 'routeError.newVersion' : 'routeError.title'),
    subTitle: t(chunk ? 'routeError.newVersionHint' : 'routeError.hint'),
    onRetry: () => setRetry({ to: 'here', down: false }),
    onHome: () => setRetry({ to: 'home', down: false }),
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
        <button type="button" className="lt-btn" onClick={props.onHome}>
          {props.homeText}
        </button>
      </div>
    </div>
  );
}
