import {
  localToInstant,
  addDays,
  EntrancePaymentType,
  halachicMinutes,
  HalachicTime,
  isErevChag,
  isoDate,
  weekdayOf,
  type ClubLocation,
  type LocalDate,
} from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import { processEntrance } from '../modules/gate/entrance.service.js';
import { BatchEntranceEngine, type EngineSnapshot } from './batch-engine.js';
import { DEMO_PRICES, type DemoClient } from './club-data.js';
import { MoneySim, type MoneySnapshot, type MoneyStats } from './money.js';
import type { Actor } from '../lib/actor.js';
import type { ClearingProvider } from '../integrations/clearing/provider.js';
import type { Rng } from './random.js';

/**
 * A year of entrance history for the demo club, produced by the real entrance
 * engine (DESIGN §9): each simulated visit presents a client's card at a
 * terminal at a time, and `processEntrance` decides and records it exactly as
 * for a live terminal. Nothing is inserted into entrance_logs directly.
 *
 * The simulation: women visit about once a cycle (29 ± 2 days) in the evening
 * after nightfall, later on Saturday night; men come in the morning (some
 * daily, most before Shabbat, some now and then), Friday also at noon, many
 * more on holiday eves; annual subscribers come mornings and some evenings;
 * nobody comes on Shabbat day. A share of presentations produces the usual
 * failures: too early or too late for the group (4), expired subscription
 * (2), no balance (5), expired license (10), unknown card (8), a second
 * presentation within 2 seconds (13) or within the group's delay (7), a
 * second entrance on a one-a-day subscription (6), an inactive client (3).
 * Money payers load their balance when it runs short, with a real purchase
 * (demo/money.ts), and the day's other money events (desk, kiosk, MASAV,
 * renewal, cash box) run in time order between the presentations; quick exits
 * follow each batch of days.
 *
 * Speed: the days are processed in batches, each batch inside one
 * transaction (the engine's own transaction becomes a savepoint), which
 * saves a commit per entrance.
 */

export interface HistoryOptions {
  clubId: number;
  location: ClubLocation;
  /** Serial → terminal id. */
  terminals: Record<string, number>;
  clients: DemoClient[];
  /** First simulated local day; the last is today, up to `now`. */
  start: LocalDate;
  days: number;
  now: Date;
  rng: Rng;
  log?: (msg: string) => void;
  /** Days per transaction (default 7). */
  batchDays?: number;
  /**
   * 'batched' (default): decide with {@link BatchEntranceEngine} (the engine's
   * pure decision, bulk writes); 'exact': call `processEntrance` for every
   * presentation (about 10 ms each on PGlite).
   */
  engine?: 'batched' | 'exact';
  /** The staff user the desk's money events are made by, and the clearing provider (demo/money.ts). */
  money: { actor: Actor; provider: ClearingProvider };
  /** Where a stopped history goes on (what `checkpoint` last saved); the clients and `rng` as saved with it. */
  resume?: HistoryResume;
  /**
   * Called inside each batch's transaction, after its writes: saves what a later start needs to
   * go on (seed.ts keeps it in server_state with the clients and the generator's state), so a
   * stop between batches loses nothing and repeats nothing. `done` on the last batch.
   */
  checkpoint?: (tx: Tx, r: HistoryResume, done: boolean) => Promise<void>;
  /**
   * Called first in each batch's transaction with the batch's first day: false when another
   * runner (a second server on the same PostgreSQL database) already wrote it; this one stops.
   */
  claim?: (tx: Tx, next: number) => Promise<boolean>;
  /** Stops between batches (a server shutting down); the next start resumes. */
  signal?: AbortSignal;
}

/** The simulation's state after a committed batch, beyond the database and the clients. */
export interface HistoryResume {
  /** The first day (index) still to simulate. */
  next: number;
  unknownSeq: number;
  stats: HistoryStats;
  engine: EngineSnapshot | null;
  money: MoneySnapshot;
}

export interface HistoryStats {
  entrances: number;
  byStatus: Record<number, number>;
  topUps: number;
  money: MoneyStats;
  ms: number;
}

interface Visit {
  /** Seconds after local midnight of the day. */
  sec: number;
  card: string;
  terminal: string;
  client: DemoClient | null;
  /** A money event of the day (demo/money.ts) instead of a presentation. */
  run?: (db: Db, at: Date) => Promise<void>;
}

/** The simulation's running state: the options, what it produced so far, the fast engine. */
interface Sim {
  o: HistoryOptions;
  rng: Rng;
  stats: HistoryStats;
  /** The batched engine; null when every presentation goes through `processEntrance`. */
  fast: BatchEntranceEngine | null;
  women: DemoClient[];
  men: DemoClient[];
  annual: DemoClient[];
  staff: DemoClient[];
  /** Next card number the club does not know. */
  unknownSeq: number;
  money: MoneySim;
}

/**
 * Runs the simulation (from `o.resume` when given); returns what it produced, with `stopped` when
 * `o.signal` stopped it between batches.
 */
export async function generateHistory(db: Db, o: HistoryOptions): Promise<HistoryStats & { stopped?: boolean }> {
  const started = performance.now();
  const ofKind = (kind: DemoClient['kind']) => o.clients.filter((c) => c.kind === kind);
  const fast = o.engine === 'exact' ? null : await BatchEntranceEngine.load(db, o.clubId);
  if (fast && o.resume?.engine) fast.restore(o.resume.engine);
  const money = new MoneySim({
    clubId: o.clubId,
    actor: o.money.actor,
    provider: o.money.provider,
    terminals: o.terminals,
    clients: o.clients,
    start: o.start,
    days: o.days,
    now: o.now,
    rng: o.rng,
    fast,
  });
  await money.prepare(db, o.resume?.money);
  const sim: Sim = {
    o,
    rng: o.rng,
    stats: { ...(o.resume?.stats ?? { entrances: 0, byStatus: {}, topUps: 0, ms: 0 }), money: money.stats },
    fast,
    money,
    women: ofKind('women'),
    men: ofKind('men'),
    annual: ofKind('annual'),
    staff: ofKind('staff'),
    unknownSeq: o.resume?.unknownSeq ?? 900_001,
  };
  const batch = Math.max(1, o.batchDays ?? 7);
  const spent = o.resume?.stats.ms ?? 0;
  for (let k0 = o.resume?.next ?? 0; k0 <= o.days; k0 += batch) {
    // PGlite answers in microtasks: without a turn of the event loop the server would not even
    // accept a connection while the history runs in the background (main.ts).
    await yieldToEventLoop();
    if (o.signal?.aborted) return { ...sim.stats, stopped: true };
    const claimed = await db.transaction(async (tx) => {
      if (o.claim && !(await o.claim(tx, k0))) return false;
      for (let k = k0; k < Math.min(k0 + batch, o.days + 1); k++) {
        await simulateDay(sim, tx, k);
        await yieldToEventLoop();
      }
      await sim.fast?.flush(tx);
      // Quick exits of the batch's entrances at DEMO-3, once they are written.
      const from = localToInstant(addDays(o.start, k0), 0, o.location.timeZone);
      const to = localToInstant(addDays(o.start, Math.min(k0 + batch, o.days + 1)), 0, o.location.timeZone);
      await money.timed('quickExits', () => money.quickExits(tx as unknown as Db, from, to));
      await sim.fast?.flush(tx);
      const next = Math.min(k0 + batch, o.days + 1);
      sim.stats.ms = spent + Math.round(performance.now() - started);
      await o.checkpoint?.(
        tx,
        {
          next,
          unknownSeq: sim.unknownSeq,
          stats: sim.stats,
          engine: sim.fast?.snapshot(to) ?? null,
          money: money.snapshot(next - 1),
        },
        next > o.days,
      );
      return true;
    });
    if (!claimed) {
      o.log?.('  demo history: another server is writing it; this one stops');
      return { ...sim.stats, stopped: true };
    }
    const done = Math.min(k0 + batch, o.days + 1);
    if (done % 28 < batch || done === o.days + 1) {
      o.log?.(
        `  demo history: ${done}/${o.days + 1} days, ${sim.stats.entrances} entrances (${Math.round(performance.now() - started)} ms)`,
      );
    }
  }
  sim.stats.ms = spent + Math.round(performance.now() - started);
  return sim.stats;
}

/** One turn of the event loop (requests that need no database are answered meanwhile). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Plans day `k` and presents its visits in time order, up to `now`. */
async function simulateDay(sim: Sim, tx: Tx, k: number): Promise<void> {
  const date = addDays(sim.o.start, k);
  const visits = planDay(sim, k, date);
  for (const e of sim.money.plan(k, date, weekdayOf(date))) {
    visits.push({ sec: e.min * 60 + sim.rng.int(0, 59), card: '', terminal: '', client: null, run: e.run });
  }
  visits.sort((a, b) => a.sec - b.sec);
  await sim.money.timed('masavReturn', () =>
    sim.money.returnsDue(tx as unknown as Db, localToInstant(date, 7 * 3600, sim.o.location.timeZone)),
  );
  for (const v of visits) {
    const at = localToInstant(date, v.sec, sim.o.location.timeZone);
    if (at > sim.o.now) continue;
    if (v.run) await v.run(tx as unknown as Db, at);
    else await present(sim, tx, v, at, date);
  }
}

/** What a day's planners share: the day, its calendar facts and how to add a visit. */
interface DayPlan {
  k: number;
  wd: number;
  erev: boolean;
  chag: boolean;
  iso: string;
  tzeit: number;
  out: Visit[];
  /** Adds a visit at `min` minutes after midnight (plus random seconds). */
  add: (c: DemoClient | null, min: number, terminal?: string, card?: string) => void;
  licensed: (c: DemoClient) => boolean;
  lapsed: (c: DemoClient) => boolean;
  morning: () => number;
  noon: () => number;
}

/** The visits of one day. */
function planDay(sim: Sim, k: number, date: LocalDate): Visit[] {
  const { o, rng } = sim;
  const il = o.location.il;
  const iso = isoDate(date);
  const out: Visit[] = [];
  const at = (min: number) => Math.max(0, Math.round(min * 60 + rng.int(0, 59)));
  const d: DayPlan = {
    k,
    wd: weekdayOf(date),
    erev: isErevChag(date, il),
    chag: isErevChag(addDays(date, -1), il),
    iso,
    tzeit: halachicMinutes(HalachicTime.Nightfall, date, o.location) ?? 19 * 60,
    out,
    add: (c, min, terminal, card) =>
      out.push({ sec: at(min), card: card ?? c!.card, terminal: terminal ?? c?.terminal ?? 'DEMO-1', client: c }),
    licensed: (c) => c.licenseExpiry >= iso,
    lapsed: (c) => c.subscriptionEnd != null && c.subscriptionEnd < iso && !c.paysByMoney,
    morning: () => rng.around(6.6 * 60, 40),
    noon: () => 12 * 60 + rng.int(0, 175),
  };
  const womenOpen = planWomen(sim, d);
  // Men and annual subscribers: no one on Shabbat; few on a holiday.
  if (d.wd !== 6) {
    const factor = d.chag ? 0.3 : 1;
    planMen(sim, d, factor);
    planAnnual(sim, d, factor);
    for (const c of sim.staff) if (rng.chance(0.5 * factor)) d.add(c, 8 * 60 + rng.int(0, 600));
  }
  // Cards the club does not know (lost, another club's, visitors).
  const unknown = rng.int(0, 2);
  for (let i = 0; i < unknown; i++) {
    const m = rng.chance(0.5) ? d.morning() : womenOpen + rng.int(0, 100);
    d.add(null, m, rng.pick(['DEMO-1', 'DEMO-2', 'DEMO-3']), String(sim.unknownSeq++));
  }
  return out;
}

/** Women: once a cycle, from nightfall (Saturday night from 45 minutes after); returns the opening minute. */
function planWomen(sim: Sim, d: DayPlan): number {
  const { rng } = sim;
  const womenOpen = d.wd === 6 ? d.tzeit + 45 : d.tzeit;
  const womenClose = d.wd === 6 ? 23 * 60 + 30 : d.wd === 5 || d.erev ? 22 * 60 : 23 * 60;
  for (const c of sim.women) {
    if (c.nextVisit !== d.k) continue;
    c.nextVisit = d.k + Math.max(24, Math.round(rng.around(29, 1.5)));
    if (!c.active && !rng.chance(0.1)) continue;
    if ((!d.licensed(c) || d.lapsed(c)) && !rng.chance(0.3)) continue;
    // Evenings fill in the first two hours after opening.
    const m = Math.min(womenClose - 3, womenOpen + Math.abs(rng.around(0, 55)));
    if (rng.chance(0.03)) {
      d.add(c, womenOpen - rng.int(5, 25)); // too early: closed to the group
      d.add(c, womenOpen + rng.int(1, 10));
    } else d.add(c, m);
    if (rng.chance(0.012)) d.add(c, m + rng.int(10, 40)); // back within the group's delay
  }
  return womenOpen;
}

/** Men: daily, before Shabbat, or now and then; many more on holiday eves; some after closing, some double taps. */
function planMen(sim: Sim, d: DayPlan, factor: number): void {
  const { rng } = sim;
  for (const c of sim.men) {
    let p = c.habit === 'daily' ? 0.6 : c.habit === 'friday' ? (d.wd === 5 ? 0.55 : 0.02) : 0.035;
    if (d.erev) p = Math.max(p, 0.5);
    if (!c.active) p *= 0.05;
    if (!d.licensed(c) || d.lapsed(c)) p *= 0.3;
    if (!rng.chance(p * factor)) continue;
    const afternoon = (d.wd === 5 || d.erev) && rng.chance(0.5);
    if (!afternoon && rng.chance(0.03))
      d.add(c, 9 * 60 + 30 + rng.int(1, 40)); // after closing
    else d.add(c, afternoon ? d.noon() : d.morning());
    const last = d.out[d.out.length - 1];
    if (rng.chance(0.01)) d.out.push({ ...last, sec: last.sec + 1 }); // double tap
  }
}

/** Annual subscribers: mornings (Friday and holiday eves also at noon), some evenings, a second entrance now and then. */
function planAnnual(sim: Sim, d: DayPlan, factor: number): void {
  const { rng } = sim;
  for (const c of sim.annual) {
    let p = d.erev ? 0.55 : d.wd === 5 ? 0.35 : 0.18;
    if (!c.active) p *= 0.05;
    if (!rng.chance(p * factor)) {
      if (d.wd <= 4 && rng.chance(0.04)) d.add(c, 20 * 60 + rng.int(0, 140)); // evening only
      continue;
    }
    const afternoon = (d.wd === 5 || d.erev) && rng.chance(0.4);
    d.add(c, afternoon ? d.noon() : d.morning());
    // A second entrance the same day on a one-a-day subscription.
    if (d.wd <= 4 && rng.chance(0.04)) d.add(c, 20 * 60 + rng.int(0, 140));
  }
}

/**
 * A money payer short of the day's price (DEMO_PRICES, agorot) loads, most of the time, a few
 * minutes before: 6–12 entrances' worth (women) or 25–50 (men), a money-load purchase through the
 * real purchase service (demo/money.ts `load`).
 */
async function topUp(sim: Sim, tx: Tx, c: DemoClient, at: Date, date: LocalDate): Promise<void> {
  const { rng } = sim;
  const erev = weekdayOf(date) === 5 || isErevChagCached(date, sim.o.location.il);
  const price =
    c.kind === 'women'
      ? erev
        ? DEMO_PRICES.womenShabbatChag
        : DEMO_PRICES.womenWeekday
      : erev
        ? DEMO_PRICES.menFriday
        : DEMO_PRICES.men;
  if (c.balance >= price || !rng.chance(0.85)) return;
  // Larger loads than one cycle's worth: fewer, realistic desk visits (a purchase each, demo/money.ts).
  const amount = price * (c.kind === 'women' ? rng.int(6, 12) : rng.int(25, 50));
  const before = c.balance;
  await sim.money.timed('load', () =>
    sim.money.load(tx as unknown as Db, c, amount, new Date(at.getTime() - rng.int(2, 15) * 60_000)),
  );
  if (c.balance > before) sim.stats.topUps++;
}

/** Loads money when a money payer is short, then presents the card to the engine. */
async function present(sim: Sim, tx: Tx, v: Visit, at: Date, date: LocalDate): Promise<void> {
  const { o, fast, stats } = sim;
  const c = v.client;
  if (c?.paysByMoney && c.active) await topUp(sim, tx, c, at, date);
  const terminalId = o.terminals[v.terminal];
  const identification = { kind: 'card', value: v.card } as const;
  const r = fast
    ? fast.present(terminalId, identification, at)
    : await processEntrance(
        tx as unknown as Db,
        null,
        { clubId: o.clubId, terminalId, identification, at },
        { publish: false },
      );
  if (c && r.amount > 0 && r.paymentType === EntrancePaymentType.Money) c.balance -= r.amount;
  stats.entrances++;
  stats.byStatus[r.status] = (stats.byStatus[r.status] ?? 0) + 1;
}

const erevCache = new Map<string, boolean>();

/** isErevChag, remembered per date (the same dates come back for every visit of a day). */
function isErevChagCached(d: LocalDate, il: boolean): boolean {
  const key = `${isoDate(d)}:${il}`;
  let v = erevCache.get(key);
  if (v === undefined) erevCache.set(key, (v = isErevChag(d, il)));
  return v;
}
