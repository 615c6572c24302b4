/**
 * After an update the server no longer has the code files an open console
 * was built with: loading a screen then fails ("Failed to fetch dynamically
 * imported module"). The console reloads itself once to get the new files;
 * a second failure within a minute is shown as an error (no reload loop).
 *
 * The same failure happens while the server is down (a restart, an update
 * being installed): the browser still says it is online, and a reload then
 * lands on the browser's own error page ("This site can't be reached"), out
 * of the console. So the console reloads only when the server answers its
 * health endpoint (`GET /api/health`); until then it stays, showing that it
 * is reconnecting (issue 35, docs/operations.md "Console files").
 *
 * Vite's own `vite:preloadError` event is not held back: a held-back error
 * leaves the screen's module undefined ("Cannot read properties of
 * undefined"), which the screen's error view could not tell from a bug. The
 * error reaches RouteError (every route's error element), which recovers.
 */

const KEY = 'venue.chunkReloadAt';
const WINDOW_MS = 60_000;
/** How often the health endpoint is asked while the server is down: 1 s, growing to 5 s. */
const FIRST_PROBE_MS = 1000;
const MAX_PROBE_MS = 5000;
/** A health answer slower than this counts as no answer. */
const PROBE_TIMEOUT_MS = 4000;

/** True when `error` is a failed load of a code file (a lazy screen or its CSS), in any browser's words. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i.test(
    message,
  );
}

/** Whether the server answers now: its health endpoint with a 2xx, within {@link PROBE_TIMEOUT_MS}. */
export type Probe = () => Promise<boolean>;

export const serverAnswers: Probe = async () => {
  const abort = new AbortController();
  const timer = window.setTimeout(() => abort.abort(), PROBE_TIMEOUT_MS);
  try {
    const res = await fetch('/api/health', { cache: 'no-store', credentials: 'same-origin', signal: abort.signal });
    return res.ok;
  } catch {
    return false;
  } finally {
    window.clearTimeout(timer);
  }
};

/** What the recovery needs from the browser (tests give their own). */
export interface ReloadDeps {
  reload: () => void;
  probe: Probe;
  /** Waits `ms` milliseconds. */
  sleep: (ms: number) => Promise<void>;
}

/** The browser's reload, health probe and timer. */
export const browserReloadDeps = (): ReloadDeps => ({
  reload: () => window.location.reload(),
  probe: serverAnswers,
  sleep: (ms) => new Promise((r) => window.setTimeout(r, ms)),
});

/**
 * Reloads the page as soon as the server answers its health endpoint, asking
 * again every 1 s to 5 s while it does not; `onDown` is called once when the
 * first answer is missing (the caller shows that it is reconnecting). The
 * returned function stops the waiting. Never reloads into a stopped server.
 */
export function reloadWhenServerAnswers(
  onDown: () => void = () => undefined,
  deps: ReloadDeps = browserReloadDeps(),
): () => void {
  let stopped = false;
  void (async () => {
    let wait = FIRST_PROBE_MS;
    let told = false;
    while (!stopped) {
      if (await deps.probe()) {
        if (!stopped) deps.reload();
        return;
      }
      if (stopped) return;
      if (!told) {
        told = true;
        onDown();
      }
      await deps.sleep(wait);
      wait = Math.min(MAX_PROBE_MS, wait * 2);
    }
  })();
  return () => {
    stopped = true;
  };
}

/**
 * Takes the once-a-minute reload allowance: true (and recorded) unless the
 * page already reloaded for a missing code file within the last minute.
 */
export function takeReloadAllowance(
  storage: Pick<Storage, 'getItem' | 'setItem'> = window.sessionStorage,
  now = Date.now(),
): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (now - last < WINDOW_MS) return false;
  storage.setItem(KEY, String(now));
  return true;
}

/** What to do about a code file that failed to load (see {@link recoverFromChunkError}). */
export type ChunkRecovery = 'reconnecting' | 'reloading' | 'newVersion';

/**
 * A code file failed to load. When the server does not answer, the outage is
 * the cause: wait for it (`onState('reconnecting')`) and reload when it
 * answers. When it answers, the file is gone (an update): reload once a
 * minute (`'reloading'`), else say so (`'newVersion'`, no reload loop).
 */
export function recoverFromChunkError(
  onState: (s: ChunkRecovery) => void,
  deps: ReloadDeps = browserReloadDeps(),
  storage: Pick<Storage, 'getItem' | 'setItem'> = window.sessionStorage,
  now: () => number = Date.now,
): () => void {
  let stopped = false;
  let stopWaiting = () => undefined as void;
  void deps.probe().then((up) => {
    if (stopped) return;
    if (!up) {
      onState('reconnecting');
      stopWaiting = reloadWhenServerAnswers(() => undefined, deps);
    } else if (takeReloadAllowance(storage, now())) {
      onState('reloading');
      deps.reload();
    } else onState('newVersion');
  });
  return () => {
    stopped = true;
    stopWaiting();
  };
}
