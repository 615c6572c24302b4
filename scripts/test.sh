#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the tests need, then
# runs every unit, API and browser test a clean machine can run.
#   1. npm packages (npm install when node_modules is missing or stale)
#   2. Debian's chromium for the browser tests, when missing
#   3. the local PostgreSQL server (TEST_DATABASE_URL, default 127.0.0.1:5432),
#      started when installed but stopped
#   4. unit + API tests on PGlite, API tests again on PostgreSQL, browser tests
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="${NODE_OPTIONS:-} --no-warnings"

log() { printf '\n== %s\n' "$*"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
fi

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  log "installing Debian's chromium for the browser tests"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
pg_up() { node -e "const {Client}=require('pg');const c=new Client({connectionString:process.env.TEST_DATABASE_URL,connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" 2>/dev/null; }
if ! (cd apps/server && pg_up); then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    log "starting the local PostgreSQL server"
    for v in $(ls /etc/postgresql); do pg_ctlcluster --skip-systemctl-redirect "$v" main start || true; done
    for _ in $(seq 1 20); do (cd apps/server && pg_up) && break; sleep 1; done
  fi
fi

log "unit and API tests on PGlite"
npx vitest run

if (cd apps/server && pg_up); then
  log "API tests on PostgreSQL ($TEST_DATABASE_URL)"
  TEST_DB=postgres npx vitest run apps/server
else
  echo "PostgreSQL is not reachable at $TEST_DATABASE_URL: the PostgreSQL run is skipped" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

log "browser tests (Playwright on Debian's chromium)"
npm run build --silent
npx playwright test -c e2e/playwright.config.ts
