#!/usr/bin/env bash
# Runs every benchmark and records its results (bench/results/*.json, bench/RESULTS.md).
# `npm run bench` calls this. Other benchmarks add themselves as bench/*.bench.mjs (run with tsx,
# so they may import the server's TypeScript). BENCH_DATABASE_URL adds PostgreSQL to the start-up bench.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== start-up and console first load"
node bench/startup.mjs

shopt -s nullglob
for b in bench/*.bench.mjs; do
  echo "== $b"
  node --import tsx "$b"
done
