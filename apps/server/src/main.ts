import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { buildApp } from './app.js';
import { SecretsMissingError } from './lib/secrets.js';
import { ensureDemoClub, runDemoHistory, DEMO_EXTERNAL_CLUB_ID, DEMO_USERNAME, DEMO_PASSWORD } from './demo/seed.js';

/** Longest wait for requests in flight at shutdown (ms); a supervisor's stop timeout should be longer. */
const SHUTDOWN_GRACE_MS = 15_000;

/** `npm start`: migrate, load the demo club on first start (unless production), serve. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    replicaUrl: config.replicaUrl,
    replicaMaxStalenessMs: config.replicaMaxStalenessMs,
  });
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
  const app = await buildApp({ config, database });
  await app.listen({ port: config.port, host: config.host });
  const ms = Math.round(performance.now() - started);
  const url = `http://localhost:${config.port}`;
  console.log(`\nVenue console ready at ${url}  (${database.kind}, started in ${ms} ms)`);
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
    await historyDone;
    await database.close();
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
