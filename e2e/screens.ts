import { expect, type Page } from '@playwright/test';
import type { apiSession } from './api';
import { confirmTermsIfAsked } from './pages/LoginPage';

/**
 * Walking every screen of the console from the app's own route lists (the side
 * navigation as the signed-in user sees it, and `EXTRA_ROUTES` of
 * apps/web/src/app/screens.ts): used by the catalogue check (i18n.spec.ts).
 */
export type Session = Awaited<ReturnType<typeof apiSession>>;

/** The first row's id of the list behind a route parameter. */
const PARAM_SOURCES: Record<string, (api: Session) => Promise<number | undefined>> = {
  clientId: async (api) => (await api.get<{ items: { id: number }[] }>('/api/Client?page=1&pageSize=1')).items[0]?.id,
  groupId: async (api) => (await api.get<{ items: { id: number }[] }>('/api/Group')).items[0]?.id,
  terminalId: async (api) => (await api.get<{ items: { id: number }[] }>('/api/Terminal')).items[0]?.id,
};

/** A route with its `:param`s filled by the first row of their lists. */
export async function fillParams(path: string, api: Session): Promise<string> {
  let out = path;
  for (const m of path.matchAll(/:(\w+)/g)) {
    const source = PARAM_SOURCES[m[1]];
    if (!source) throw new Error(`screens.ts: no list gives ${m[1]} of ${path}; add it to PARAM_SOURCES`);
    const id = await source(api);
    if (id === undefined) throw new Error(`screens.ts: the demo club has no row for ${m[1]}`);
    out = out.replace(m[0], String(id));
  }
  return out;
}

/** Signs in through the URL (seed 000 §2) and confirms the terms when asked. */
export async function signIn(page: Page, user: string): Promise<void> {
  await page.goto(`/login?userName=${user}&password=demo1234&externalClubId=1001`);
  await page.getByTestId('side-nav').or(page.getByTestId('nav-toggle')).first().waitFor();
  await confirmTermsIfAsked(page);
}

/** The routes in the signed-in user's side navigation (the app's visibility rule decides). */
export async function navRoutes(page: Page): Promise<string[]> {
  const hrefs = await page
    .getByTestId('side-nav')
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')!));
  return [...new Set(hrefs)];
}

/** Waits until no spinner or skeleton is left and antd's enter animations are over. */
export async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(150);
  await expect(page.locator('.page-spinner, .ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, {
    timeout: 15_000,
  });
  await page.waitForTimeout(350);
}

/**
 * Opens a route by loading it (the session stays in the browser's storage) and waits
 * for it to settle. A load rather than a history push: while a route's code loads,
 * the router keeps the previous screen on view, which a check would take for the new one.
 */
export async function openRoute(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('#main-content').waitFor();
  await settle(page);
}
