import { test as base } from '@playwright/test';

/**
 * One server per worker (playwright.config.ts): each worker's tests talk to
 * their own server, with its own embedded database and demo club, so
 * journeys that change the club's settings run side by side without seeing
 * each other. `parallelIndex` is unique among the workers running at once.
 */
export interface E2eServer {
  index: number;
  port: number;
  /** The server's DATA_DIR (its database, the demo terminals' secrets). */
  dataDir: string;
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port>, for the terminal simulator. */
  wsUrl: string;
}

/** The servers playwright.config.ts starts (it hands them to the workers in E2E_SERVERS_JSON). */
export function e2eServers(): E2eServer[] {
  const json = process.env.E2E_SERVERS_JSON;
  if (!json) throw new Error('E2E_SERVERS_JSON is not set: run the browser tests through e2e/playwright.config.ts');
  return JSON.parse(json) as E2eServer[];
}

/** The server of the test that is running (by its worker's parallel index). */
export function currentServer(): E2eServer {
  const servers = e2eServers();
  return servers[base.info().parallelIndex % servers.length];
}

export const test = base.extend<object, { server: E2eServer }>({
  server: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const servers = e2eServers();
      await use(servers[workerInfo.parallelIndex % servers.length]);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect } from '@playwright/test';
export type { APIRequestContext, Locator, Page } from '@playwright/test';
