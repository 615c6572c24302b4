import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { readSession } from '../auth/authStorage';
import { notifyUnauthorized } from '../api/apiClient';

/** The server closed the socket because the session ended (docs/live-feed.md): signed out, disabled, idle, expired. */
const SESSION_ENDED = 4401;
import { LiveMessage as LiveMessageSchema, type LiveMessage as DomainLiveMessage } from '@venue/domain';

/** Messages of the console's live feed (docs/live-feed.md, /api/live): entrances, terminal connections, door states, cash. */
export type LiveMessage = Exclude<DomainLiveMessage, { type: 'ready' } | { type: 'error' }>;

export type LiveStatus = 'connecting' | 'open' | 'closed';
type Listener = (msg: LiveMessage) => void;

interface LiveContextValue {
  status: LiveStatus;
  subscribe: (fn: Listener) => () => void;
}

const LiveContext = createContext<LiveContextValue | null>(null);

/** Query keys refreshed when an entrance arrives (the report and the dashboard). */
export const LIVE_REFRESHED_KEYS = [['entranceReport'], ['dashboard']] as const;

/** A pushed event validated with the domain's schema; null for ready, errors and anything malformed. */
function parseMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = LiveMessageSchema.safeParse(JSON.parse(data));
    if (!parsed.success || parsed.data.type === 'ready' || parsed.data.type === 'error') return null;
    return parsed.data;
  } catch {
    return null; // not JSON: ignore
  }
}

/**
 * The console's live connection (seed 000 §4: started after login). Sends
 * `{type:'auth', token}` first, reconnects with exponential backoff, and lets
 * screens subscribe. Entrances refresh the report and dashboard queries. A
 * close with 4401 (the session ended on the server) signs the console out as a
 * 401 does.
 */
export function LiveProvider({ token, children }: { token: string; children: ReactNode }) {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const listeners = useRef(new Set<Listener>());
  const queryClient = useQueryClient();

  useEffect(() => {
    let ws: WebSocket | null = null;
    let attempt = 0;
    let stopped = false;
    let retryTimer: number | undefined;
    let refreshTimer: number | undefined;

    const refreshSoon = () => {
      // Coalesce bursts of entrances into one refetch per second.
      if (refreshTimer !== undefined) return;
      refreshTimer = window.setTimeout(() => {
        refreshTimer = undefined;
        for (const key of LIVE_REFRESHED_KEYS) void queryClient.invalidateQueries({ queryKey: [...key] });
      }, 1000);
    };

    const connect = () => {
      if (stopped) return;
      setStatus('connecting');
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      ws = new WebSocket(`${proto}//${location.host}/api/live`);
      ws.onopen = () => {
        attempt = 0;
        // The operator watches the club chosen at sign-in (docs/live-feed.md); a club user's own club is used regardless.
        const club = readSession()?.externalClubId;
        ws?.send(JSON.stringify({ type: 'auth', token, ...(club != null ? { clubExternalId: club } : {}) }));
        setStatus('open');
      };
      ws.onmessage = (ev) => {
        const msg = parseMessage(ev.data);
        if (!msg) return;
        for (const fn of listeners.current) fn(msg);
        if (msg.type === 'entrance') refreshSoon();
      };
      ws.onclose = (ev) => {
        ws = null;
        if (stopped) return;
        // The session ended on the server: no reconnecting with its token; the console signs out.
        if (ev.code === SESSION_ENDED) {
          stopped = true;
          setStatus('closed');
          notifyUnauthorized();
          return;
        }
        setStatus('closed');
        const delay = Math.min(30_000, 1000 * 2 ** attempt) + Math.random() * 500;
        attempt += 1;
        retryTimer = window.setTimeout(connect, delay);
      };
      ws.onerror = () => ws?.close();
    };
    // The network is back: reconnect now instead of at the end of the back-off.
    const onOnline = () => {
      if (ws || stopped) return;
      window.clearTimeout(retryTimer);
      attempt = 0;
      connect();
    };
    window.addEventListener('online', onOnline);
    connect();
    return () => {
      window.removeEventListener('online', onOnline);
      stopped = true;
      window.clearTimeout(retryTimer);
      window.clearTimeout(refreshTimer);
      ws?.close();
    };
  }, [token, queryClient]);

  const value = useMemo<LiveContextValue>(
    () => ({
      status,
      subscribe: (fn) => {
        listeners.current.add(fn);
        return () => listeners.current.delete(fn);
      },
    }),
    [status],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext)?.status ?? 'closed';
}

/** Calls `handler` for every live message while the component is mounted. */
export function useLiveMessages(handler: (msg: LiveMessage) => void): void {
  const ctx = useContext(LiveContext);
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!ctx) return;
    return ctx.subscribe((m) => ref.current(m));
  }, [ctx]);
}
