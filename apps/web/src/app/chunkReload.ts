/**
 * After an update the server no longer has the code files an open console
 * was built with: loading a screen then fails ("Failed to fetch dynamically
 * imported module"). The console reloads itself once to get the new files;
 * a second failure within a minute is shown as an error (no reload loop).
 */

const KEY = 'venue.chunkReloadAt';
const WINDOW_MS = 60_000;

/** True when `error` is a failed load of a code file (a lazy screen or its CSS), in any browser's words. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i.test(
    message,
  );
}

/** Whether the browser is online, and how to wait until it is (tests give their own). */
export interface Link {
  online: boolean;
  whenOnline: (then: () => void) => void;
}

const browserLink = (): Link => ({
  online: navigator.onLine,
  whenOnline: (then) => window.addEventListener('online', then, { once: true }),
});

/**
 * Reloads the page unless it already did so for this reason within the last
 * minute; answers whether it reloads. A load that failed because the network
 * dropped reloads when the link returns, not into the browser's offline page
 * (the offline banner says what happens meanwhile). The other arguments are for tests.
 */
export function reloadOnce(
  reload: () => void = () => window.location.reload(),
  storage: Pick<Storage, 'getItem' | 'setItem'> = window.sessionStorage,
  now = Date.now(),
  link: Link = browserLink(),
): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (now - last < WINDOW_MS) return false;
  storage.setItem(KEY, String(now));
  if (link.online) reload();
  else link.whenOnline(reload);
  return true;
}

/** Vite's own event for a failed preload of a screen's files: reload once instead of failing. */
export function listenForPreloadErrors(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnce()) event.preventDefault();
  });
}
