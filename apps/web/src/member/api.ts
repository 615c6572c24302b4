import type {
  MemberBooking,
  MemberBookingRoom,
  MemberBookings,
  MemberBookingSlot,
  MemberGateCode,
  MemberWaitlistEntry,
  MemberCheckoutStarted,
  MemberCheckoutState,
  MemberClub,
  MemberCodeSent,
  MemberDocument,
  MemberEntrance,
  MemberMe,
  MemberMoney,
  MemberPerson,
  MemberSignInResponse,
  MemberSubscription,
  NotificationChoices,
} from '@venue/domain';

/**
 * The member app's calls (contract.members; docs/members.md): a member token
 * kept in this browser, the anti-forgery header on calls other than GET. Types
 * only from @venue/domain, so the app carries none of its schemas.
 */

const TOKEN_KEY = 'venue.member.token';

/** A refused call: the server's code, its field errors and its details (retryAfterSeconds). */
export class MemberApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fields: { path: string; message: string }[],
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private mode: signed in for this page only.
  }
}

let onSignedOut: () => void = () => undefined;
/** What a refused session (401) does: the app goes back to sign-in. */
export function setSignedOutHandler(fn: () => void): void {
  onSignedOut = fn;
}

function cookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

async function xsrf(): Promise<string> {
  if (!cookie('XSRF-TOKEN')) await fetch('/api/health', { credentials: 'same-origin' }).catch(() => undefined);
  return cookie('XSRF-TOKEN') ?? '';
}

/** One call; the answer as JSON, or the Response itself for a file (`raw`). */
async function call(method: string, path: string, body?: unknown, lang?: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lang) headers['Accept-Language'] = lang;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-XSRF-TOKEN'] = await xsrf();
  let res: Response;
  try {
    res = await fetch(`/api/Member${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new MemberApiError(0, 'NETWORK', []);
  }
  if (!res.ok) {
    const data = (await res.json().catch(() => ({}))) as { code?: string; details?: unknown };
    const fields = Array.isArray(data.details) ? (data.details as { path: string; message: string }[]) : [];
    const retry = (data.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    if (res.status === 401 && token && !path.startsWith('/SignIn')) {
      storeToken(null);
      onSignedOut();
    }
    throw new MemberApiError(res.status, data.code ?? 'GENERAL_ERROR', fields, retry);
  }
  return res;
}

const json = async <T>(p: Promise<Response>): Promise<T> => (await p).json() as Promise<T>;

export const memberApi = {
  requestCode: (contact: string, language: string) =>
    json<MemberCodeSent>(call('POST', '/RequestCode', { contact, language })),
  signIn: (contact: string, code: string) => json<MemberSignInResponse>(call('POST', '/SignIn', { contact, code })),
  clubs: () => json<MemberClub[]>(call('GET', '/Clubs')),
  chooseClub: (clubId: number) => json<MemberClub>(call('POST', '/Club', { clubId })),
  logout: () => call('POST', '/Logout'),
  me: () => json<MemberMe>(call('GET', '/Me')),
  subscription: (id: number, lang: string) =>
    json<MemberSubscription>(call('GET', `/Subscription/${id}`, undefined, lang)),
  money: (id: number) => json<MemberMoney>(call('GET', `/Money/${id}`)),
  entrances: (id: number) => json<MemberEntrance[]>(call('GET', `/Entrances/${id}`)),
  documents: (id: number) => json<MemberDocument[]>(call('GET', `/Documents/${id}`)),
  documentPdf: async (id: number) => (await call('GET', `/Document/${id}/Pdf`)).blob(),
  updateContact: (patch: { phone?: string; email?: string }) => json<MemberPerson>(call('PATCH', '/Contact', patch)),
  notificationChoices: () => json<NotificationChoices>(call('GET', '/NotificationChoices')),
  setNotificationChoices: (patch: { email?: boolean; sms?: boolean }) =>
    json<NotificationChoices>(call('PATCH', '/NotificationChoices', patch)),
  checkout: (
    body: { clientId: number; kind: 'debt' | 'load' | 'renew'; debtId?: number; amount?: number },
    lang: string,
  ) => json<MemberCheckoutStarted>(call('POST', '/Checkout', body, lang)),
  checkoutState: (code: string) => json<MemberCheckoutState>(call('GET', `/Checkout/${encodeURIComponent(code)}`)),
  bookingRooms: () => json<MemberBookingRoom[]>(call('GET', '/Booking/Rooms')),
  bookingSlots: (date: string, kind: string) =>
    json<MemberBookingSlot[]>(call('GET', `/Booking/Slots?date=${encodeURIComponent(date)}&kind=${kind}`)),
  bookings: () => json<MemberBookings>(call('GET', '/Booking')),
  book: (body: { resourceId: number; startsAt: string; idempotencyKey: string }) =>
    json<MemberBooking>(call('POST', '/Booking', body)),
  cancelBooking: (id: number) =>
    json<{ booking: MemberBooking; refunded: number }>(call('POST', `/Booking/${id}/Cancel`, {})),
  acceptOffer: (id: number) => json<MemberBooking>(call('POST', `/Booking/${id}/Accept`, {})),
  gateCode: (id: number) => json<MemberGateCode>(call('POST', `/Booking/${id}/GateCode`, {})),
  joinWaitlist: (body: { date: string; kind: string }) =>
    json<MemberWaitlistEntry>(call('POST', '/Booking/Waitlist', body)),
};

/** Saves a PDF the browser fetched with the member's token under `filename`. */
export async function downloadDocument(id: number, filename: string): Promise<void> {
  const blob = await memberApi.documentPdf(id);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
