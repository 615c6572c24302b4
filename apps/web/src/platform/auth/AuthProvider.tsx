import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type LoginRequest, type LoginResponse } from '@venue/domain';
import { ApiError, apiRequest, setUnauthorizedHandler } from '../api/apiClient';
import {
  clearSession,
  readLastActivity,
  readSession,
  setLoginReason,
  writeClubDetails,
  writeLastActivity,
  writeSession,
  type LoginReason,
  type StoredSession,
} from './authStorage';
import type { SessionData } from './sessionData';

export type { SessionData };

interface AuthContextValue {
  session: StoredSession | null;
  data: SessionData | undefined;
  loading: boolean;
  login: (req: LoginRequest) => Promise<void>;
  logout: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export const SESSION_QUERY_KEY = ['session'] as const;

// Loaded on demand: the contract's schemas stay out of the sign-in page's first load (docs/operations.md, console files).
// Kept once loaded, so that the calls go out at once rather than after another dynamic import's turn.
let sessionCode: typeof import('./sessionData') | undefined;
const loadSessionCode = () => import('./sessionData').then((m) => (sessionCode = m));

/**
 * Loads the session's code ahead of the sign-in (the sign-in page calls it
 * once its form is drawn and the browser is idle), so that the session's
 * calls go out the moment the token arrives. A failed load is retried by the
 * sign-in itself.
 */
export function preloadSessionCode(): void {
  void loadSessionCode().catch(() => undefined);
}

/** The session's data (user, club, capacities, groups) for a token; the one query of it. */
function sessionQuery(token: string) {
  return {
    queryKey: [...SESSION_QUERY_KEY, token],
    queryFn: () => (sessionCode ? sessionCode.loadSessionData() : loadSessionCode().then((m) => m.loadSessionData())),
    staleTime: 5 * 60_000,
    retry: false,
  };
}

export type { LoginReason };

/** The user's input that counts as activity (docs/security.md "Sessions"). */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
/** Input is recorded at most this often (ms); the idle check runs this often too. */
const ACTIVITY_STEP_MS = 10_000;

/**
 * Session state (seed 000 §4): signed in while the stored expiry lies in the
 * future. Expiry, a 401 from any call (the server ended the session: signed
 * out elsewhere, password changed, user or club disabled, idle), a failed club
 * load and logout all clear the token, expiry and club details and go to
 * /login. Logout and the idle timeout also end the session on the server
 * (`POST /api/Account/Logout`), so the token stops working everywhere.
 * Idle: no pointer, key, wheel or touch input in any tab of the console for
 * the session's `idleSeconds` (the server's SESSION_IDLE_SECONDS) signs out;
 * the sign-in page says why. The screens' own refreshes are not input.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<StoredSession | null>(() => readSession());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const storedFor = useRef<string | null>(null);

  // Ends the session; the sign-in page says why when it was not the user's choice.
  const end = useCallback(
    (reason?: LoginReason) => {
      if (reason) setLoginReason(reason);
      clearSession();
      setSession(null);
      queryClient.clear();
      void navigate('/login', { replace: true });
    },
    [navigate, queryClient],
  );
  // Ends the session on the server: the call takes the stored token before `end` clears it.
  const endOnServer = useCallback(() => {
    void apiRequest('/Account/Logout', { method: 'POST', skipAuthRedirect: true }).catch(() => undefined);
  }, []);
  const logout = useCallback(() => {
    endOnServer();
    end();
  }, [end, endOnServer]);
  const idleOut = useCallback(() => {
    endOnServer();
    end('idle');
  }, [end, endOnServer]);
  // A session the server refused while the user was away ended for being idle: the page says that.
  const expire = useCallback(() => {
    const s = readSession();
    if (s && Date.now() - readLastActivity() >= s.idleSeconds * 1000 - ACTIVITY_STEP_MS) idleOut();
    else end('expired');
  }, [end, idleOut]);

  useEffect(() => {
    setUnauthorizedHandler(expire);
    return () => setUnauthorizedHandler(null);
  }, [expire]);

  // End the session the moment its expiry passes.
  useEffect(() => {
    if (!session) return;
    const ms = session.expiresAt - Date.now();
    const timer = window.setTimeout(expire, Math.max(0, Math.min(ms, 2_147_000_000)));
    return () => window.clearTimeout(timer);
  }, [session, expire]);

  // The idle timeout: the user's input in any tab renews it (authStorage `writeLastActivity`).
  useEffect(() => {
    if (!session) return;
    let recorded = 0;
    const mark = () => {
      const now = Date.now();
      if (now - recorded < ACTIVITY_STEP_MS) return;
      recorded = now;
      writeLastActivity(now);
    };
    const check = () => {
      if (Date.now() - readLastActivity() > session.idleSeconds * 1000) idleOut();
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, mark, { passive: true, capture: true });
    // A computer waking from sleep checks at once, not at the next step.
    document.addEventListener('visibilitychange', check);
    const timer = window.setInterval(check, ACTIVITY_STEP_MS);
    check();
    return () => {
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, mark, { capture: true });
      document.removeEventListener('visibilitychange', check);
      window.clearInterval(timer);
    };
  }, [session, idleOut]);

  const query = useQuery({ ...sessionQuery(session?.token ?? ''), enabled: session != null });

  // A failed club load sends the user to login (seed 000 §8).
  // A 401 has already ended the session as expired (setUnauthorizedHandler); do not overwrite why.
  useEffect(() => {
    if (!query.isError) return;
    if (query.error instanceof ApiError && query.error.status === 401) return;
    logout();
  }, [query.isError, query.error, logout]);

  // The club's details for screens that read them before the session query (authStorage).
  // The low-license toast on club load is LowLicenseToast, in the signed-in frame (it needs antd).
  const club = query.data?.club;
  useEffect(() => {
    if (!club || !session) return;
    if (storedFor.current === session.token) return;
    storedFor.current = session.token;
    writeClubDetails({ name: club.name, currencySymbol: club.currencySymbol, licancesAmount: club.licancesAmount });
  }, [club, session]);

  const login = useCallback(
    async (req: LoginRequest) => {
      const answer = apiRequest<LoginResponse>('/Account', { method: 'POST', body: req, skipAuthRedirect: true });
      // The session data's code loads while the password is checked (asked for after the sign-in call has
      // gone out, not before it), and its four calls go out the moment the token is there: ahead of the
      // signed-in frame's files, which queue for the same six connections (issue 19 load speed).
      const code = new Promise((resolve) => window.setTimeout(resolve, 0)).then(loadSessionCode).catch(() => null);
      const res = await answer;
      queryClient.clear();
      const stored = writeSession(res.token, res.expiresIn, req.externalClubId, res.idleTimeoutSeconds);
      void code.then(() => queryClient.prefetchQuery(sessionQuery(stored.token)));
      setSession(stored);
    },
    [queryClient],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ session, data: query.data, loading: session != null && query.isPending, login, logout }),
    [session, query.data, query.isPending, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** Session data of a signed-in screen (only rendered under the guard). */
export function useSessionData(): SessionData {
  const { data } = useAuth();
  if (!data) throw new Error('useSessionData before the session loaded');
  return data;
}
