import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { buildApp } from './app.js';
import { ensureDemoClub, DEMO_EXTERNAL_CLUB_ID, DEMO_USERNAME, DEMO_PASSWORD } from './demo/seed.js';

/** `npm start`: migrate, load the demo club on first start (unless production), serve. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let demo = false;
  if (!config.production) {
    demo = await ensureDemoClub(database.db, { clients: config.demoClients, days: config.demoDays, log: console.log });
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
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
