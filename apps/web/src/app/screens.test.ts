import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES } from '@venue/domain';
import * as screens from './screens';
import { EXTRA_ROUTES } from './screens';
import { REPORT_SCREENS } from '../features/reports/reportScreens';

/**
 * The browser's accessibility scan (e2e/a11y.spec.ts) walks the side
 * navigation's links and `EXTRA_ROUTES`; this checks against router.tsx's
 * own text that every route the router declares is one of them, so that a
 * new route cannot stay out of the scan (docs/accessibility.md "Checked by").
 */
const ROUTER = readFileSync(new URL('./router.tsx', import.meta.url), 'utf8');

/** Each `path:` of the route table with the nav key of its `guarded(...)` element, if any. */
function routerRoutes(): { path: string; navKey?: string }[] {
  const out: { path: string; navKey?: string }[] = [];
  const re = /path:\s*([^,\n]+?),\s*(?:errorElement:[^\n]*\n\s*)?element:\s*(?:\(\s*)?(?:guarded\('(\w+)')?/gs;
  for (const m of ROUTER.matchAll(re)) {
    const expr = m[1].trim();
    const navKey = m[2];
    if (expr === "'*'") continue; // the not-found page
    if (expr === 'r.route') {
      for (const r of REPORT_SCREENS) out.push({ path: r.route, navKey: r.navKey });
      continue;
    }
    const literal = /^'([^']+)'$/.exec(expr);
    const constant = (screens as Record<string, unknown>)[expr];
    const path = literal ? literal[1] : typeof constant === 'string' ? constant : undefined;
    if (!path) throw new Error(`screens.test: cannot read the route path ${expr} of router.tsx`);
    out.push({ path, navKey });
  }
  return out;
}

describe('the screen list of the accessibility scan', () => {
  const routes = routerRoutes();

  it('reads every route of router.tsx', () => {
    // Every `path:` occurrence is matched (one more: the catch-all; the report screens count as one).
    const declared = ROUTER.match(/\bpath:/g)?.length ?? 0;
    expect(routes.length - REPORT_SCREENS.length + 1 + 1).toBe(declared);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('every route is either a navigation entry (at that entry’s route) or in EXTRA_ROUTES', () => {
    const extra = new Set(EXTRA_ROUTES.map((r) => r.path));
    const missing = routes.filter((r) => {
      if (extra.has(r.path)) return false;
      const nav = NAV_ENTRIES.find((e) => e.route === r.path);
      return !nav || (r.navKey !== undefined && nav.key !== r.navKey);
    });
    expect(missing).toEqual([]);
  });

  it('EXTRA_ROUTES lists only routes the router has and no navigation route', () => {
    const paths = new Set(routes.map((r) => r.path));
    for (const r of EXTRA_ROUTES) {
      expect(paths.has(r.path), r.path).toBe(true);
      expect(
        NAV_ENTRIES.some((e) => e.route === r.path),
        r.path,
      ).toBe(false);
    }
  });
});
