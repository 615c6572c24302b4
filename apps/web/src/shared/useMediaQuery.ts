import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (cb) => {
      const m = window.matchMedia(query);
      m.addEventListener('change', cb);
      return () => m.removeEventListener('change', cb);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Seed 000 §9 breakpoints: phone up to 599.98px, tablet 600–959.98px. */
export type Viewport = 'phone' | 'tablet' | 'desktop';
export function useViewport(): Viewport {
  const phone = useMediaQuery('(max-width: 599.98px)');
  const tablet = useMediaQuery('(min-width: 600px) and (max-width: 959.98px)');
  return phone ? 'phone' : tablet ? 'tablet' : 'desktop';
}
