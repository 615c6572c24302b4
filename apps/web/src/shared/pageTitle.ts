import { useEffect } from 'react';

/**
 * Browser tab titles (issue 19 "One format"; docs/console-management.md "Page titles"):
 * `<screen> — <owner>`; the owner alone when there is no screen name. The shell's
 * `app/pageTitle.ts` names the signed-in screens, the sign-in page its own.
 */
export function pageTitle(screen: string | null, owner: string): string {
  return screen ? `${screen} — ${owner}` : owner;
}

/** Keeps `document.title` on `title`. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
