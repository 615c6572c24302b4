import { useEffect, useRef, useState } from 'react';
import { Alert } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLiveStatus } from '../../platform/live/LiveProvider';

/** How long the live link may be down before the banner shows (a reconnect takes about a second). */
const LINK_GRACE_MS = 4000;

/** The browser's own idea of the network, live (`online` / `offline` events). */
function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * A banner above the screen while the console cannot reach the server: the
 * browser is offline, or the live link has been down for more than
 * {@link LINK_GRACE_MS}. It clears itself when the link returns, and every
 * screen's data is then fetched again so nothing stale stays on screen.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useBrowserOnline();
  const live = useLiveStatus();
  const queryClient = useQueryClient();
  const [linkDown, setLinkDown] = useState(false);

  useEffect(() => {
    if (live === 'open') {
      setLinkDown(false);
      return;
    }
    const timer = window.setTimeout(() => setLinkDown(true), LINK_GRACE_MS);
    return () => window.clearTimeout(timer);
  }, [live]);

  const offline = !online || linkDown;
  const wasOffline = useRef(false);
  useEffect(() => {
    if (offline) wasOffline.current = true;
    else if (wasOffline.current) {
      wasOffline.current = false;
      void queryClient.invalidateQueries();
    }
  }, [offline, queryClient]);

  if (!offline) return null;
  return (
    <Alert
      banner
      type="warning"
      role="status"
      title={t('app.offline')}
      className="offline-banner"
      data-testid="offline-banner"
    />
  );
}
