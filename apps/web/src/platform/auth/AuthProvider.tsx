import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type LoginRequest, type LoginResponse } from '@venue/domain';
import { ApiError, apiRequest, setUnauthorizedHandler } from '../api/apiClient';
import {
  clearSession,
  readSession,
  setLoginReason,
  writeClubDetails,
  writeSession,
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

/** The session's data (user, club, capacities, groups) for a token; the one query of it. */
function sessionQuery(token: string) {
  return {
    queryKey: [...SESSION_QUERY_KEY, token],
    queryFn: () => (sessionCode ? sessionCode.loadSessionData() : loadSessionCode().then((m) => m.loadSessionData())),
    staleTime: 5 * 60_000,
    retry: false,
  };
}

/** Why the sign-in page is shown (authStorage `setLoginReason`): the session ran out or the server refused it. */
export type LoginReason = 'expired';

/**
 * Session state (seed 000 §4): signed in while the stored expiry lies in the
 * future. Expiry, a 401 from any call, a failed club load and logout all clear
 * the token, expiry and club details and go to /login.
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
  const logout = useCallback(() => end(), [end]);
  const expire = useCallback(() => end('expired'), [end]);

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
      const stored = writeSession(res.token, res.expiresIn, req.externalClubId);
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
