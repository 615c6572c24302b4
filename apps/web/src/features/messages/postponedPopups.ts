/**
 * Popup messages the user put off with "Later" (docs/messages.md "Console"):
 * they stay closed until the next sign-in — across reloads and the other
 * tabs of the same sign-in — and open again after signing in anew. Kept in
 * localStorage with a mark of the sign-in they belong to (the end of its
 * token, which every sign-in renews); a list stored under another sign-in's
 * mark is void.
 */
const KEY = 'venue.popupsLater';

/** What the functions below need of `localStorage` (a test passes its own). */
export type PopupStorage = Pick<Storage, 'getItem' | 'setItem'>;

interface Stored {
  session: string;
  ids: number[];
}

/** The mark of a sign-in: the last 16 characters of its token (the token's signature). */
export function sessionMark(token: string | null | undefined): string {
  return token ? token.slice(-16) : '';
}

function read(storage: PopupStorage): Stored | null {
  try {
    const v = JSON.parse(storage.getItem(KEY) ?? 'null') as Stored | null;
    return v && typeof v.session === 'string' && Array.isArray(v.ids) ? v : null;
  } catch {
    return null;
  }
}

/** Ids of the popups put off in the sign-in `session` (none for another sign-in, or without one). */
export function postponedPopups(session: string, storage: PopupStorage = localStorage): Set<number> {
  const stored = read(storage);
  if (!session || !stored || stored.session !== session) return new Set();
  return new Set(stored.ids.filter((id) => Number.isInteger(id)));
}

/** Puts popup `id` off until the next sign-in; returns the ids now put off in `session`. */
export function postponePopup(session: string, id: number, storage: PopupStorage = localStorage): Set<number> {
  const ids = postponedPopups(session, storage).add(id);
  if (session) storage.setItem(KEY, JSON.stringify({ session, ids: [...ids] } satisfies Stored));
  return ids;
}
