#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the tests need, then
# runs every unit, API and browser test a clean machine can run.
#   1. npm packages (npm install when node_modules is missing or stale)
#   2. Debian's chromium for the browser tests, when missing
#   3. the local PostgreSQL server (TEST_DATABASE_URL, default 127.0.0.1:5432),
#      started when installed but stopped
#   4. unit + API tests on PGlite and on PostgreSQL (one vitest run), the console
#      bundle built meanwhile in the background, then the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="${NODE_OPTIONS:-} --no-warnings"

log() { printf '\n== %s\n' "$*"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages"
  npm install --prefer-offline --no-audit --no-fund --loglevel=error
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

# Each phase writes JSON reports; scripts/test-summary.mjs prints the count of
# tests run, each phase's wall time and the closing "N passed, N failed" line.
REPORTS="$(mktemp -d)"
status=0
phase() { # phase <name> <command...>: runs a phase, records its wall time, keeps going after a failure
  local name="$1" t0=$SECONDS
  shift
  log "$name"
  "$@" || status=1
  printf '%s\t%s\n' "$name" "$((SECONDS - t0))" >>"$REPORTS/phases.tsv"
}

# The console bundle for the browser tests, built once, in the background at
# the lowest priority: it takes the cores the vitest run leaves (its last
# files, a file waiting on PostgreSQL) instead of a phase of its own. Nice 19,
# not less: the server's sheet and export threads run at 19
# (apps/server/src/lib/thread-priority.ts) under a 20 s limit, and a build
# above them would starve the tests that read sheets.
log "building the console bundle (in the background)"
(
  t0=$SECONDS rc=0
  nice -n 19 npm run build --silent >"$REPORTS/build.log" 2>&1 || rc=$?
  printf '%s\t%s\n' "console build (in the background)" "$((SECONDS - t0))" >>"$REPORTS/phases.tsv"
  exit "$rc"
) &
build_pid=$!

# Unit tests, the server on PGlite and the server on PostgreSQL: one vitest run,
# one pool of workers (vitest.config.ts: `TEST_DB=all`, and `maxWorkers`, which
# says why three on two cores), one report per project
# (scripts/vitest-projects-reporter.ts).
vitest_run() { # vitest_run <TEST_DB>
  TEST_DB="$1" VITEST_PROJECTS_REPORT_DIR="$REPORTS" \
    npx vitest run --reporter=default --reporter=./scripts/vitest-projects-reporter.ts
}
if (cd apps/server && pg_up); then
  phase "unit and API tests on PGlite and on PostgreSQL ($TEST_DATABASE_URL)" vitest_run all
else
  echo "PostgreSQL is not reachable at $TEST_DATABASE_URL: the PostgreSQL run is skipped" >&2
  if [ "${CI:-}" = "true" ]; then status=1; fi
  phase "unit and API tests on PGlite" vitest_run pglite
fi

browser() {
  log "waiting for the console bundle"
  if ! wait "$build_pid"; then
    cat "$REPORTS/build.log" >&2
    return 1
  fi
  PLAYWRIGHT_JSON_OUTPUT_NAME="$REPORTS/4-browser.playwright.json" \
    npx playwright test -c e2e/playwright.config.ts --reporter=list,json
}
phase "browser tests (Playwright on Debian's chromium)" browser

node scripts/test-summary.mjs "$REPORTS" || status=1
exit "$status"
