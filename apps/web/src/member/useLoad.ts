import { useCallback, useEffect, useState } from 'react';

/** Loads `fn` when its keys change; `reload` loads again. Errors are kept for the screen to show. */
export function useLoad<T>(fn: () => Promise<T>, keys: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [n, setN] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const load = useCallback(fn, keys);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (d) => live && setData(d),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [load, n]);
  return { data, error, reload: () => setN((x) => x + 1) };
}
