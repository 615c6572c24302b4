import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { E2eServer } from './fixtures';

/**
 * Browser tests on Debian's chromium (no browser download: DESIGN §3).
 *
 * One server per worker (E2E_WORKERS, default 4), each on a fresh embedded database
 * with a small demo club of its own: a worker's journeys change
 * only its own server's club (e2e/fixtures.ts gives each test its server).
 * This file is read again by every worker: the servers are chosen once and
 * handed over in E2E_SERVERS_JSON.
 *
 * Why four on this 2-core machine: one worker alone keeps a third of one core
 * busy (the a11y crawl at 1440 px: 46 s of CPU in 134 s; the rest is waiting on
 * settling screens, polling and its server), so two left the machine half
 * idle. Measured alone on the whole suite (docs/testing.md "Workers"): two workers 1,830 s, four 872 s with the cores 76 % busy and no
 * test failed or retried; more would only queue for the cores.
 */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 4));
if (!process.env.E2E_SERVERS_JSON) {
  const basePort = Number(process.env.E2E_PORT ?? 3217);
  const servers: E2eServer[] = Array.from({ length: workers }, (_, index) => {
    const port = basePort + index;
    return {
      index,
      port,
      dataDir: mkdtempSync(path.join(tmpdir(), `venue-e2e-${index}-`)),
      url: `http://127.0.0.1:${port}`,
      wsUrl: `ws://127.0.0.1:${port}`,
    };
  });
  process.env.E2E_SERVERS_JSON = JSON.stringify(servers);
}
const servers = JSON.parse(process.env.E2E_SERVERS_JSON) as E2eServer[];

export default defineConfig({
  testDir: '.',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: servers.length,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    viewport: { width: 1280, height: 800 },
    trace: 'off',
  },
  webServer: servers.map((s) => ({
    command: 'npm run start -w apps/server',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${s.url}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    env: {
      PORT: String(s.port),
      DATA_DIR: s.dataDir,
      DEMO_CLIENTS: '150',
      DEMO_DAYS: '14',
      // The specs assert the demo's history and money: load it before the server answers.
      DEMO_HISTORY: 'wait',
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  })),
});
