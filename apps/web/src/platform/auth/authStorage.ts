/**
 * Session storage (seed 000 §4, §9): the token with its expiry (login time +
 * expiresIn seconds) and the club id, in localStorage. The session is valid
 * while the expiry lies in the future.
 */
const TOKEN = 'venue.token';
const EXPIRY = 'venue.expiresAt';
const CLUB = 'venue.externalClubId';
const CLUB_DETAILS = 'venue.club';
const IDLE = 'venue.idleSeconds';
const ACTIVITY = 'venue.lastActivity';

/** The server's default idle timeout (docs/security.md "Sessions"), for a session stored before the login answer carried it. */
export const DEFAULT_IDLE_SECONDS = 30 * 60;

export interface StoredSession {
  token: string;
  expiresAt: number;
  externalClubId: number | null;
  /** The session ends after this many seconds without the user's input (the login answer's `idleTimeoutSeconds`). */
  idleSeconds: number;
}

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(TOKEN);
  const expiresAt = Number(localStorage.getItem(EXPIRY) ?? 0);
  if (!token || !Number.isFinite(expiresAt) || expiresAt <= Date.now()) return null;
  const club = localStorage.getItem(CLUB);
  const idle = Number(localStorage.getItem(IDLE) ?? DEFAULT_IDLE_SECONDS);
  return {
    token,
    expiresAt,
    externalClubId: club ? Number(club) : null,
    idleSeconds: Number.isFinite(idle) && idle > 0 ? idle : DEFAULT_IDLE_SECONDS,
  };
}

/**
 * The moment of the user's last input in any tab of the console (ms): the
 * tabs share it through localStorage, so a tab left alone does not sign out a
 * user working in another.
 */
export function readLastActivity(): number {
  const at = Number(localStorage.getItem(ACTIVITY) ?? 0) || 0;
  if (at > 0) return at;
  // A session stored before activity was recorded starts counting now.
  const now = Date.now();
  writeLastActivity(now);
  return now;
}

/** Records the user's input now (see {@link readLastActivity}). */
export function writeLastActivity(at = Date.now()): void {
  localStorage.setItem(ACTIVITY, String(at));
}

/** True when a token is stored whose expiry has passed: the user was signed in and the session ran out. */
export function hadExpiredSession(): boolean {
  const token = localStorage.getItem(TOKEN);
  const expiresAt = Number(localStorage.getItem(EXPIRY) ?? 0);
  return Boolean(token) && expiresAt <= Date.now();
}

const LOGIN_REASON = 'venue.loginReason';

/** Why a session ended other than by the user's choice: it ran out or the server refused it, or the user was away. */
export type LoginReason = 'expired' | 'idle';

/** Remembers why the session ended (shown once by the sign-in page), for the tab's lifetime. */
export function setLoginReason(reason: LoginReason): void {
  sessionStorage.setItem(LOGIN_REASON, reason);
}

/** Why the last session ended, if the sign-in page has not shown it yet. */
export function readLoginReason(): LoginReason | null {
  const r = sessionStorage.getItem(LOGIN_REASON);
  return r === 'expired' || r === 'idle' ? r : null;
}

/** The sign-in page showed the reason (or the user signed in again). */
export function clearLoginReason(): void {
  sessionStorage.removeItem(LOGIN_REASON);
}

export function writeSession(
  token: string,
  expiresInSeconds: number,
  externalClubId: number,
  idleSeconds = DEFAULT_IDLE_SECONDS,
): StoredSession {
  const expiresAt = Date.now() + expiresInSeconds * 1000;
  localStorage.setItem(TOKEN, token);
  localStorage.setItem(EXPIRY, String(expiresAt));
  localStorage.setItem(CLUB, String(externalClubId));
  localStorage.setItem(IDLE, String(idleSeconds));
  writeLastActivity();
  return { token, expiresAt, externalClubId, idleSeconds };
}

/**
 * The operator chooses the club it acts on (docs/operator.md "Act on a club"):
 * every later call carries it as the `clubExternalId` header. The caller
 * reloads the console so no cached data of the previous club remains.
 */
export function writeActingClub(externalClubId: number): void {
  localStorage.setItem(CLUB, String(externalClubId));
  localStorage.removeItem(CLUB_DETAILS);
}

/** Remembers the club details read at start (seed 000 §3 "Also read at start"). */
export function writeClubDetails(details: unknown): void {
  localStorage.setItem(CLUB_DETAILS, JSON.stringify(details));
}

/** Logout and expiry clear the token, the expiry and the club details (seed 000 §4). */
export function clearSession(): void {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(EXPIRY);
  localStorage.removeItem(CLUB);
  localStorage.removeItem(CLUB_DETAILS);
  localStorage.removeItem(IDLE);
}
