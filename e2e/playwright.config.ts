import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Browser tests on Debian's chromium (no browser download: DESIGN §3).
 * The server runs on a fresh embedded database with a small demo club.
 */
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'venue-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const port = Number(process.env.E2E_PORT ?? 3217);
process.env.E2E_PORT = String(port);

export default defineConfig({
  testDir: '.',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  webServer: {
    command: 'npm run start -w apps/server',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_CLIENTS: '150',
      DEMO_DAYS: '14',
      // The specs assert the demo's history and money: load it before the server answers.
      DEMO_HISTORY: 'wait',
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  },
});
