/**
 * Session storage (seed 000 §4, §9): the token with its expiry (login time +
 * expiresIn seconds) and the club id, in localStorage. The session is valid
 * while the expiry lies in the future.
 */
const TOKEN = 'venue.token';
const EXPIRY = 'venue.expiresAt';
const CLUB = 'venue.externalClubId';
const CLUB_DETAILS = 'venue.club';

export interface StoredSession {
  token: string;
  expiresAt: number;
  externalClubId: number | null;
}

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(TOKEN);
  const expiresAt = Number(localStorage.getItem(EXPIRY) ?? 0);
  if (!token || !Number.isFinite(expiresAt) || expiresAt <= Date.now()) return null;
  const club = localStorage.getItem(CLUB);
  return { token, expiresAt, externalClubId: club ? Number(club) : null };
}

/** True when a token is stored whose expiry has passed: the user was signed in and the session ran out. */
export function hadExpiredSession(): boolean {
  const token = localStorage.getItem(TOKEN);
  const expiresAt = Number(localStorage.getItem(EXPIRY) ?? 0);
  return Boolean(token) && expiresAt <= Date.now();
}

const LOGIN_REASON = 'venue.loginReason';

/** Remembers why the session ended (shown once by the sign-in page), for the tab's lifetime. */
export function setLoginReason(reason: 'expired'): void {
  sessionStorage.setItem(LOGIN_REASON, reason);
}

/** Why the last session ended, if the sign-in page has not shown it yet. */
export function readLoginReason(): 'expired' | null {
  return sessionStorage.getItem(LOGIN_REASON) === 'expired' ? 'expired' : null;
}

/** The sign-in page showed the reason (or the user signed in again). */
export function clearLoginReason(): void {
  sessionStorage.removeItem(LOGIN_REASON);
}

export function writeSession(token: string, expiresInSeconds: number, externalClubId: number): StoredSession {
  const expiresAt = Date.now() + expiresInSeconds * 1000;
  localStorage.setItem(TOKEN, token);
  localStorage.setItem(EXPIRY, String(expiresAt));
  localStorage.setItem(CLUB, String(externalClubId));
  return { token, expiresAt, externalClubId };
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
}
