/**
 * The seed's direct sign-in link (seed 000 §2: `/login?userName=…&password=…&externalClubId=…`)
 * without leaving the password behind (docs/security.md "Logs"): `captureLoginParams` runs before
 * anything else of the console, keeps the three values in memory only and takes them out of the
 * address bar and the browser's history (`history.replaceState`), whatever page was opened.
 */
export interface LoginParams {
  userName: string;
  password: string;
  externalClubId: string;
}

const KEYS = ['userName', 'password', 'externalClubId'] as const;
let captured: LoginParams | null = null;

/** Takes the sign-in parameters out of the current address (call once, first thing). */
export function captureLoginParams(loc: Location = window.location, hist: History = window.history): void {
  const params = new URLSearchParams(loc.search);
  if (!KEYS.some((k) => params.has(k))) return;
  captured = {
    userName: params.get('userName') ?? '',
    password: params.get('password') ?? '',
    externalClubId: params.get('externalClubId') ?? '',
  };
  for (const k of KEYS) params.delete(k);
  const qs = params.toString();
  hist.replaceState(hist.state, '', `${loc.pathname}${qs ? `?${qs}` : ''}${loc.hash}`);
}

/** The captured parameters (empty strings when none). */
export function takeLoginParams(): LoginParams {
  return captured ?? { userName: '', password: '', externalClubId: '' };
}

/** Forgets the captured password (the sign-in page calls it once it has the value in its form). */
export function forgetLoginPassword(): void {
  if (captured) captured = { ...captured, password: '' };
}

/**
 * Whether this server lets the link sign in by itself (`urlSignIn` of GET /api/health: on outside
 * production, off in production unless the operator turned it on); otherwise the link only fills
 * the form.
 */
export async function urlSignInAllowed(): Promise<boolean> {
  try {
    const res = await fetch('/api/health', { credentials: 'same-origin' });
    return ((await res.json()) as { urlSignIn?: boolean }).urlSignIn === true;
  } catch {
    return false;
  }
}
