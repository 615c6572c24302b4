import path from 'node:path';
import { loadConfig } from './config.js';
import { startTracing } from './lib/tracing.js';
import { openDatabase } from './db/index.js';
import { buildApp } from './app.js';
import { startMetricsServer } from './plugins/metrics.js';
import { SandboxProvider, setClearingProvider } from './integrations/clearing/sandbox.js';
import { FileBooks, TableBooks } from './integrations/clearing/sandbox-books.js';
import { SecretsMissingError } from './lib/secrets.js';
import { ensureDemoClub, runDemoHistory, DEMO_EXTERNAL_CLUB_ID, DEMO_USERNAME, DEMO_PASSWORD } from './demo/seed.js';

/** Longest wait for requests in flight at shutdown (ms); a supervisor's stop timeout should be longer. */
const SHUTDOWN_GRACE_MS = 15_000;

/** `npm start`: migrate, load the demo club on first start (unless production), serve. */
async function main(): Promise<void> {
  const started = performance.now();
  // Where a start spends its time (printed on the ready line; bench/restart.bench.mjs reads it).
  const phases: string[] = [];
  let mark = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${Math.round(now - mark)}`);
    mark = now;
  };
  phases.push(`modules ${Math.round(started)}`);
  const config = loadConfig();
  // OpenTelemetry traces when its standard environment asks for them (lib/tracing.ts).
  const stopTracing = await startTracing();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    replicaUrl: config.replicaUrl,
    replicaMaxStalenessMs: config.replicaMaxStalenessMs,
  });
  phase('database');
  // The sandbox card provider keeps its books where a kill cannot take them (docs/money.md "The
  // sandbox provider"): on PostgreSQL its own table, shared by the instances; on PGlite a journal.
  const sandbox = new SandboxProvider({
    latencyMs: config.sandboxLatencyMs,
    books: database.url
      ? await TableBooks.open(database.url)
      : new FileBooks(path.join(config.dataDir, 'sandbox-clearing')),
  });
  setClearingProvider(sandbox);
  phase('sandbox books');
  let demo = false;
  if (!config.production) {
    // The club and its clients first; the year of history after the server listens (docs/demo-club.md "First start").
    demo = await ensureDemoClub(database.db, {
      clients: config.demoClients,
      days: config.demoDays,
      log: console.log,
      history: config.demoHistory === 'wait' ? 'wait' : 'later',
    });
  }
  phase('demo check');
  const app = await buildApp({ config, database });
  phase('app');
  await app.listen({ port: config.port, host: config.host });
  phase('listen');
  // Prometheus's own port (docs/operations.md "Metrics"); unset = none.
  const metrics = config.metricsPort != null ? await startMetricsServer(config.metricsPort, config.metricsHost) : null;
  if (metrics) console.log(`Metrics at http://${config.metricsHost}:${metrics.port}/metrics`);
  const ms = Math.round(performance.now() - started);
  const url = `http://localhost:${config.port}`;
  console.log(`\nVenue console ready at ${url}  (${database.kind}, started in ${ms} ms: ${phases.join(', ')} ms)`);
  if (demo) {
    console.log(`Demo club ${DEMO_EXTERNAL_CLUB_ID}: sign in as ${DEMO_USERNAME} / ${DEMO_PASSWORD}`);
    console.log(
      `  ${url}/login?userName=${DEMO_USERNAME}&password=${DEMO_PASSWORD}&externalClubId=${DEMO_EXTERNAL_CLUB_ID}`,
    );
  }
  // The demo's year of history, written in the background: a batch of days per transaction, each
  // saving where it got to; a stop goes on at the next start (demo/seed.ts runDemoHistory).
  const history = new AbortController();
  let historyDone: Promise<unknown> = Promise.resolve();
  if (demo && config.demoHistory !== 'wait') {
    historyDone = runDemoHistory(database.db, { log: console.log, signal: history.signal }).catch((err) =>
      console.error('Demo history failed (the next start goes on from the last saved batch):', err),
    );
  }
  // Graceful shutdown (docs/operations.md "Shutdown"): readiness answers 503; the terminal links send
  // the decisions they are making, close with 1001 (a terminal moves to its next server address at
  // once, or decides offline meanwhile) and write their last contact and release; the console's
  // sockets close; requests in flight finish; the jobs stop; the pool closes last. Gives up after
  // SHUTDOWN_GRACE_MS.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const stopStarted = performance.now();
    const force = setTimeout(() => {
      console.error(`shutdown took over ${SHUTDOWN_GRACE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    history.abort();
    await app.close();
    await metrics?.close();
    await historyDone;
    await sandbox.close();
    await database.close();
    await stopTracing?.(); // the last spans are sent
    clearTimeout(force);
    console.log(`stopped in ${Math.round(performance.now() - stopStarted)} ms`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  // A missing production key says what to set, without a stack.
  console.error(err instanceof SecretsMissingError ? err.message : err);
  process.exit(1);
});
