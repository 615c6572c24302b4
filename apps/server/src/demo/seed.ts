import { eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '../db/query.js';
import { addDays, allPermissions, JERUSALEM, localParts, UserLevel, UserRole, type LocalDate } from '@venue/domain';
import { loadConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { clubs, products, serverState, users } from '../db/schema.js';
import { hashPassword } from '../lib/password.js';
import { createDemoClients, createDemoGroups, createDemoTerminals, type DemoClient } from './club-data.js';
import { createDemoBookings } from './bookings.js';
import { generateHistory, type HistoryResume, type HistoryStats } from './history.js';
import { demoActor } from './money.js';
import { Rng } from './random.js';
import { clearingProvider } from '../integrations/clearing/sandbox.js';
import { readTerminalSecrets, reissueDemoTerminalSecrets, writeTerminalSecrets } from './terminal-secrets.js';
import { runAsHistory, setHistoryWriting } from '../lib/history-writing.js';

import {
  DEMO_EXTERNAL_CLUB_ID,
  DEMO_OPERATOR_USERNAME,
  DEMO_PASSWORD,
  DEMO_USERNAME,
} from '../lib/demo-credentials.js';

export { DEMO_EXTERNAL_CLUB_ID, DEMO_OPERATOR_USERNAME, DEMO_PASSWORD, DEMO_USERNAME };
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
 * file is missing (see terminal-secrets.ts) and going on with a history a
 * stop left unfinished (server_state `demo_history`).
 *
 * The load: club 1001 in Jerusalem, the admin/demo1234 account, groups with
 * schedules, three approved terminals, `clients` clients, then `days` days
 * of history through the real entrance engine and money services. With
 * `history: 'later'` only the first part ({@link loadDemoBase}); the caller
 * runs {@link runDemoHistory} (main.ts: after the server listens). Default
 * 'wait': everything before returning. Progress goes to `log`.
 * Never called on a production start (main.ts).
 */
export async function ensureDemoClub(db: Db, opts: DemoOptions & { history?: 'wait' | 'later' }): Promise<boolean> {
  const dataDir = opts.dataDir ?? loadConfig().dataDir;
  const existing = await db.select({ id: clubs.id, e: clubs.externalClubId }).from(clubs).limit(5);
  if (existing.length > 0) {
    const demo = existing.find((c) => c.e === DEMO_EXTERNAL_CLUB_ID);
    if (demo && dataDir !== 'memory://' && !readTerminalSecrets(dataDir)) {
      await reissueDemoTerminalSecrets(db, demo.id, dataDir);
      opts.log?.(`Demo terminal secrets were missing: issued new ones into ${dataDir}/terminal-secrets.json`);
    }
    if (demo) {
      const flags = await db
        .select({ key: serverState.key, value: serverState.value })
        .from(serverState)
        .where(inArray(serverState.key, [DEMO_LOADED_KEY, DEMO_HISTORY_KEY]));
      const pending = flags.find((f) => f.key === DEMO_HISTORY_KEY);
      if (pending) {
        opts.log?.('The demo history did not finish loading on the last start: it goes on where it stopped.');
        // Money that takes a number waits for it, from before the server listens (lib/history-writing.ts).
        const saved = JSON.parse(pending.value) as SavedHistory;
        setHistoryWriting(saved.clubId, { day: saved.resume?.next ?? 0, days: saved.days + 1 });
        if (opts.history !== 'later') await runDemoHistory(db, { log: opts.log });
      } else if (!flags.length)
        opts.log?.('Warning: the demo history did not finish loading; delete the data directory to load it again.');
    }
    return Boolean(demo);
  }
  if (opts.history === 'later') await loadDemoBase(db, { ...opts, dataDir });
  else await loadDemoClub(db, { ...opts, dataDir });
  return true;
}

/** Creates the demo club and its history unconditionally; see {@link ensureDemoClub}. */
export async function loadDemoClub(db: Db, opts: DemoOptions & { dataDir: string }): Promise<DemoLoad> {
  await loadDemoBase(db, opts);
  const load = await runDemoHistory(db, { log: opts.log });
  if (!load) throw new Error('the demo history did not run');
  return load;
}

/**
 * The part of the demo club a user needs to sign in and a terminal needs to
 * open the gate: club, accounts, products, groups and schedules, terminals
 * and clients, in one transaction, with the history's starting state
 * (server_state `demo_history`) written in the same transaction. The year of
 * history is {@link runDemoHistory}'s job (main.ts runs it after the server
 * listens). Returns the club's id.
 */
export async function loadDemoBase(db: Db, opts: DemoOptions & { dataDir: string }): Promise<number> {
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
          // The dealer's identity every tax document prints (docs/money.md "The dealer's identity on
          // tax documents"): a test number with a valid check digit (123456782, the usual sample ID)
          // and an address that is not a real one.
          companyNumber: '123456782',
          addressCity: 'ירושלים',
          addressStreet: 'רחוב ההדגמה',
          addressHouseNumber: '1',
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
    const bookingsFrom = performance.now();
    const booked = await createDemoBookings(tx, club.id, groupIds.women, demoClients, today, now, opts.seed ?? 1001);
    log(
      `  ${booked.rooms} rooms, ${booked.bookings} bookings (${booked.folded} past retention, now counts) in ${Math.round(performance.now() - bookingsFrom)} ms`,
    );
    const saved: SavedHistory = {
      v: 1,
      clubId: club.id,
      adminId: admin.id,
      terminals: term.ids,
      start,
      days,
      now: now.toISOString(),
      engine: opts.engine ?? (process.env.DEMO_ENGINE === 'exact' ? 'exact' : 'batched'),
      rng: rng.state,
      clients: demoClients,
      resume: null,
    };
    await tx.insert(serverState).values({ key: DEMO_HISTORY_KEY, value: JSON.stringify(saved) });
    return { clubId: club.id, adminId: admin.id, groupIds, term, demoClients };
  });
  if (opts.dataDir !== 'memory://') {
    const file = writeTerminalSecrets(opts.dataDir, base.term.secrets);
    log(`  terminal secrets for the simulator: ${file}`);
  }
  log(
    `  club, groups, terminals and ${base.demoClients.length} clients in ${Math.round(performance.now() - started)} ms`,
  );
  // Until runDemoHistory has written the year, money that takes a number in the club waits for it
  // (lib/history-writing.ts; docs/demo-club.md "While the history is written").
  setHistoryWriting(base.clubId, { day: 0, days: days + 1 });

  log(`Demo club ready to sign in in ${Math.round(performance.now() - started)} ms (the year of history comes next)`);
  return base.clubId;
}

/** server_state key of the demo history's progress while it loads (value: {@link SavedHistory} as JSON). */
export const DEMO_HISTORY_KEY = 'demo_history';

/** What the demo history needs to start or go on, saved with every committed batch of days. */
interface SavedHistory {
  v: 1;
  clubId: number;
  adminId: number;
  terminals: Record<string, number>;
  start: LocalDate;
  days: number;
  /** The first start's moment (ISO): a resumed history still ends there. */
  now: string;
  engine: 'batched' | 'exact';
  /** The generator's state at the save. */
  rng: number;
  clients: DemoClient[];
  /** Null before the first batch. */
  resume: HistoryResume | null;
}

/**
 * Writes (or finishes) the demo club's year of history through the real
 * engines (history.ts, money.ts), from the state {@link loadDemoBase} or the
 * last committed batch saved: a start after a stop in the middle goes on
 * from there, so nothing is written twice. Each batch of days is one
 * transaction that also saves the state; the last one replaces it with the
 * `demo_loaded` flag. Returns null when there is nothing to load (or another
 * caller already finished it); stops between batches when `signal` aborts.
 */
export async function runDemoHistory(
  db: Db,
  opts: { log?: (msg: string) => void; signal?: AbortSignal },
): Promise<DemoLoad | null> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const [row] = await db.select().from(serverState).where(eq(serverState.key, DEMO_HISTORY_KEY));
  if (!row) return null;
  const saved = JSON.parse(row.value) as SavedHistory;
  const rng = new Rng(0);
  rng.state = saved.rng;
  if (saved.resume) log(`  demo history: going on from day ${saved.resume.next + 1} of ${saved.days + 1}`);
  const progress = (day: number) => setHistoryWriting(saved.clubId, { day, days: saved.days + 1 });
  progress(saved.resume?.next ?? 0);
  // The history's own purchases and documents take their numbers; others wait (lib/history-writing.ts).
  const history = await runAsHistory(() =>
    generateHistory(db, {
      clubId: saved.clubId,
      location: JERUSALEM,
      terminals: saved.terminals,
      clients: saved.clients,
      start: saved.start,
      days: saved.days,
      now: new Date(saved.now),
      rng,
      log,
      engine: saved.engine,
      money: { actor: demoActor(saved.clubId, saved.adminId, DEMO_EXTERNAL_CLUB_ID), provider: clearingProvider() },
      resume: saved.resume ?? undefined,
      signal: opts.signal,
      // The saved row, locked for the batch (PostgreSQL: a second server waits, then finds it moved on).
      claim: async (tx, next) => {
        const [r] = await queryRows<{ value: string }>(
          tx,
          sql`select value from server_state where key = ${DEMO_HISTORY_KEY} for update`,
        );
        return r != null && ((JSON.parse(r.value) as SavedHistory).resume?.next ?? 0) === next;
      },
      checkpoint: async (tx, resume, done) => {
        if (done) {
          await tx.delete(serverState).where(eq(serverState.key, DEMO_HISTORY_KEY));
          await tx
            .insert(serverState)
            .values({
              key: DEMO_LOADED_KEY,
              value: JSON.stringify({
                at: new Date().toISOString(),
                entrances: resume.stats.entrances,
                ms: resume.stats.ms,
              }),
            })
            .onConflictDoNothing();
          return;
        }
        const next: SavedHistory = { ...saved, rng: rng.state, clients: saved.clients, resume };
        await tx
          .update(serverState)
          .set({ value: JSON.stringify(next) })
          .where(eq(serverState.key, DEMO_HISTORY_KEY));
        progress(resume.next);
      },
    }),
  );
  // Written (or stopped: this process no longer writes it): the club's numbers are open again.
  setHistoryWriting(saved.clubId, null);
  const ms = Math.round(performance.now() - started);
  if (history.stopped) {
    log(`Demo history stopped after ${ms} ms: the next start goes on where it stopped`);
    return null;
  }
  log(
    `Demo club history loaded in ${ms} ms: ${history.entrances} entrances (${Object.entries(history.byStatus)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ')}), ${history.topUps} balance loads`,
  );
  const m = history.money;
  log(
    `  money: ${m.purchases} purchases (${m.loads} loads, ${m.subscriptions} subscriptions, ${m.kiosk} kiosk sales, ` +
      `${m.renewals} renewals), ${m.cashSessions} cash sessions, ${m.masavFiles} MASAV files, ${m.debts} desk debts, ` +
      `${m.quickExits} quick exits; refused: ${JSON.stringify(m.refusals)}; ms: ${JSON.stringify(m.ms)}`,
  );
  return { clubId: saved.clubId, clients: saved.clients.length, history, ms };
}
