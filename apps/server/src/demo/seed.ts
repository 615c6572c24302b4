import { eq } from 'drizzle-orm';
import { addDays, allPermissions, JERUSALEM, localParts, UserLevel, UserRole, type LocalDate } from '@venue/domain';
import { loadConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { clubs, products, serverState, users } from '../db/schema.js';
import { hashPassword } from '../lib/password.js';
import { createDemoClients, createDemoGroups, createDemoTerminals } from './club-data.js';
import { generateHistory, type HistoryStats } from './history.js';
import { demoActor } from './money.js';
import { Rng } from './random.js';
import { clearingProvider } from '../integrations/clearing/sandbox.js';
import { readTerminalSecrets, reissueDemoTerminalSecrets, writeTerminalSecrets } from './terminal-secrets.js';

export const DEMO_EXTERNAL_CLUB_ID = 1001;
export const DEMO_USERNAME = 'admin';
/** Only for the demo club (DESIGN §9); a production start creates no account. */
export const DEMO_PASSWORD = 'demo1234';
/** The demo's service operator (user level SuperUser, no club; signs in with any club id), same password. */
export const DEMO_OPERATOR_USERNAME = 'operator';
/** server_state key set when the demo history finished loading (value: ISO time and counts). */
export const DEMO_LOADED_KEY = 'demo_loaded';

export interface DemoOptions {
  /** Number of clients (DEMO_CLIENTS, default 2000). */
  clients: number;
  /** Days of entrance history before today (DEMO_DAYS, default 365); 0 = today only. */
  days: number;
  log?: (msg: string) => void;
  /** Where terminal-secrets.json goes (DATA_DIR); default from the environment, './data'. */
  dataDir?: string;
  /** The present (tests); default now. */
  now?: Date;
  /** Seed of the simulation (default 1001): the same seed gives the same club. */
  seed?: number;
  /** How history entrances are decided (see history.ts); default DEMO_ENGINE or 'batched'. */
  engine?: 'batched' | 'exact';
}

/** Summary of a load, for logs and benchmarks. */
export interface DemoLoad {
  clubId: number;
  clients: number;
  history: HistoryStats;
  ms: number;
}

/**
 * Loads the demo club into an empty database (DESIGN §9) and returns true
 * when the demo club exists after the call. Does nothing when any club
 * exists, except re-issuing the demo terminals' secrets when the secrets
 * file is missing (see terminal-secrets.ts).
 *
 * The load: club 1001 in Jerusalem, the admin/demo1234 account, groups with
 * schedules, three approved terminals, `clients` clients, then `days` days
 * of history through the real entrance engine. Progress goes to `log`.
 * Never called on a production start (main.ts).
 */
export async function ensureDemoClub(db: Db, opts: DemoOptions): Promise<boolean> {
  const dataDir = opts.dataDir ?? loadConfig().dataDir;
  const existing = await db.select({ id: clubs.id, e: clubs.externalClubId }).from(clubs).limit(5);
  if (existing.length > 0) {
    const demo = existing.find((c) => c.e === DEMO_EXTERNAL_CLUB_ID);
    if (demo && dataDir !== 'memory://' && !readTerminalSecrets(dataDir)) {
      await reissueDemoTerminalSecrets(db, demo.id, dataDir);
      opts.log?.(`Demo terminal secrets were missing: issued new ones into ${dataDir}/terminal-secrets.json`);
    }
    if (demo) {
      const [flag] = await db.select().from(serverState).where(eq(serverState.key, DEMO_LOADED_KEY));
      if (!flag)
        opts.log?.('Warning: the demo history did not finish loading; delete the data directory to load it again.');
    }
    return Boolean(demo);
  }
  await loadDemoClub(db, { ...opts, dataDir });
  return true;
}

/** Creates the demo club and its history unconditionally; see {@link ensureDemoClub}. */
export async function loadDemoClub(db: Db, opts: DemoOptions & { dataDir: string }): Promise<DemoLoad> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const rng = new Rng(opts.seed ?? 1001);
  const location = JERUSALEM;
  const p = localParts(now, location.timeZone);
  const today: LocalDate = { year: p.year, month: p.month, day: p.day };
  const days = Math.max(0, Math.floor(opts.days));
  const start = addDays(today, -days);
  log(`Loading the demo club (first start): ${opts.clients} clients, ${days} days of history...`);

  const base = await db.transaction(async (tx) => {
    const [club] = await tx
      .insert(clubs)
      .values({
        externalClubId: DEMO_EXTERNAL_CLUB_ID,
        name: 'מקווה טהרת ישראל — הדגמה',
        licensesAmount: 250,
        capacities: [{ name: 'products', capacity: 20 }],
        location,
        settings: {
          country: 'Israel',
          mainLanguage: 'he',
          languages: ['he', 'en'],
          // Quick exit at DEMO-3: a stay of 5 to 30 minutes gives back 5.00 (subscription) or up to 10.00.
          isQuickExitEnabled: true,
          quickExitMinMinutes: 5,
          quickExitMaxMinutes: 30,
          quickExitSubscriptionReward: 500,
          quickExitTransactionReward: 1000,
          // Change above ₪20 at a terminal is kept as excess; renewal from 3 days before to 2 after the end.
          maxCashOverpayment: 2000,
          // Kiosk upsell and the product matrix report (products by terminal).
          isUpsellEnabled: true,
          autoRenewDaysBefore: 3,
          autoRenewDaysAfter: 2,
        },
      })
      .returning();
    const [admin] = await tx
      .insert(users)
      .values({
        clubId: club.id,
        username: DEMO_USERNAME,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        name: 'מנהל הדגמה',
        role: UserRole.MANAGER,
        isAdmin: true,
        permissions: allPermissions(true),
        termsVersion: 1,
      })
      .returning({ id: users.id });
    // The operator of the demo installation: global messages to clubs (docs/messages.md).
    await tx.insert(users).values({
      clubId: null,
      username: DEMO_OPERATOR_USERNAME,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      name: 'מפעיל השירות',
      role: UserRole.MANAGER,
      level: UserLevel.SuperUser,
      isAdmin: true,
      permissions: allPermissions(true),
      termsVersion: 1,
    });
    // What a mikveh sells at the counter and the kiosk (prices in agorot, VAT included).
    await tx.insert(products).values([
      { clubId: club.id, name: 'מגבת', displayName: 'מגבת גדולה', type: 1, price: 1000, maxQuantity: 2 },
      { clubId: club.id, name: 'חלוק', displayName: 'חלוק רחצה', type: 1, price: 2500, maxQuantity: 1 },
      { clubId: club.id, name: 'ערכת טבילה', description: 'מסרק, מספריים, קיסמים וצמר גפן', type: 2, price: 1500 },
      { clubId: club.id, name: 'שמפו', type: 2, price: 800, maxQuantity: 3 },
      { clubId: club.id, name: 'Hair dryer', displayName: 'מייבש שיער', type: 3, price: 500, active: false },
    ]);
    const groupIds = await createDemoGroups(tx, club.id);
    const term = await createDemoTerminals(tx, club.id);
    const demoClients = await createDemoClients(tx, club.id, groupIds, opts.clients, rng, today, start);
    return { clubId: club.id, adminId: admin.id, groupIds, term, demoClients };
  });
  if (opts.dataDir !== 'memory://') {
    const file = writeTerminalSecrets(opts.dataDir, base.term.secrets);
    log(`  terminal secrets for the simulator: ${file}`);
  }
  log(
    `  club, groups, terminals and ${base.demoClients.length} clients in ${Math.round(performance.now() - started)} ms`,
  );

  const history = await generateHistory(db, {
    clubId: base.clubId,
    location,
    terminals: base.term.ids,
    clients: base.demoClients,
    start,
    days,
    now,
    rng,
    log,
    engine: opts.engine ?? (process.env.DEMO_ENGINE === 'exact' ? 'exact' : 'batched'),
    money: { actor: demoActor(base.clubId, base.adminId, DEMO_EXTERNAL_CLUB_ID), provider: clearingProvider() },
  });
  const ms = Math.round(performance.now() - started);
  await db
    .insert(serverState)
    .values({
      key: DEMO_LOADED_KEY,
      value: JSON.stringify({ at: new Date().toISOString(), entrances: history.entrances, ms }),
    })
    .onConflictDoNothing();
  log(
    `Demo club loaded in ${ms} ms: ${history.entrances} entrances (${Object.entries(history.byStatus)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ')}), ${history.topUps} balance loads`,
  );
  const m = history.money;
  log(
    `  money: ${m.purchases} purchases (${m.loads} loads, ${m.subscriptions} subscriptions, ${m.kiosk} kiosk sales, ` +
      `${m.renewals} renewals), ${m.cashSessions} cash sessions, ${m.masavFiles} MASAV files, ${m.debts} desk debts, ` +
      `${m.quickExits} quick exits; refused: ${JSON.stringify(m.refusals)}; ms: ${JSON.stringify(m.ms)}`,
  );
  return { clubId: base.clubId, clients: base.demoClients.length, history, ms };
}
