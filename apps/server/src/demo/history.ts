import { eq, sql } from 'drizzle-orm';
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
import { balanceLedger, clients } from '../db/schema.js';
import { processEntrance } from '../engine/entrance.service.js';
import { BatchEntranceEngine } from './batch-engine.js';
import { DEMO_PRICES, type DemoClient } from './club-data.js';
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
 * Money payers load their balance when it runs short (ledger source 'demo',
 * clients.balance kept equal to the ledger sum).
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
}

export interface HistoryStats {
  entrances: number;
  byStatus: Record<number, number>;
  topUps: number;
  ms: number;
}

interface Visit {
  /** Seconds after local midnight of the day. */
  sec: number;
  card: string;
  terminal: string;
  client: DemoClient | null;
}

/** Runs the simulation; returns what it produced. */
export async function generateHistory(db: Db, o: HistoryOptions): Promise<HistoryStats> {
  const started = performance.now();
  const { rng } = o;
  const stats: HistoryStats = { entrances: 0, byStatus: {}, topUps: 0, ms: 0 };
  const women = o.clients.filter((c) => c.kind === 'women');
  const men = o.clients.filter((c) => c.kind === 'men');
  const annual = o.clients.filter((c) => c.kind === 'annual');
  const staff = o.clients.filter((c) => c.kind === 'staff');
  const batch = Math.max(1, o.batchDays ?? 7);
  let unknownSeq = 900_001;
  const fast = o.engine === 'exact' ? null : await BatchEntranceEngine.load(db, o.clubId);

  for (let k0 = 0; k0 <= o.days; k0 += batch) {
    await db.transaction(async (tx) => {
      for (let k = k0; k < Math.min(k0 + batch, o.days + 1); k++) {
        const date = addDays(o.start, k);
        const visits = planDay(k, date);
        visits.sort((a, b) => a.sec - b.sec);
        for (const v of visits) {
          const at = localToInstant(date, v.sec, o.location.timeZone);
          if (at > o.now) continue;
          await present(tx, v, at, date);
        }
      }
      await fast?.flush(tx);
    });
    const done = Math.min(k0 + batch, o.days + 1);
    if (done % 28 < batch || done === o.days + 1) {
      o.log?.(
        `  demo history: ${done}/${o.days + 1} days, ${stats.entrances} entrances (${Math.round(performance.now() - started)} ms)`,
      );
    }
  }
  stats.ms = Math.round(performance.now() - started);
  return stats;

  /** The visits of one day. */
  function planDay(k: number, date: LocalDate): Visit[] {
    const wd = weekdayOf(date);
    const il = o.location.il;
    const erev = isErevChag(date, il);
    const chag = isErevChag(addDays(date, -1), il);
    const iso = isoDate(date);
    const tzeit = halachicMinutes(HalachicTime.Nightfall, date, o.location) ?? 19 * 60;
    const out: Visit[] = [];
    const at = (min: number) => Math.max(0, Math.round(min * 60 + rng.int(0, 59)));
    const add = (c: DemoClient | null, min: number, terminal?: string, card?: string) =>
      out.push({ sec: at(min), card: card ?? c!.card, terminal: terminal ?? c?.terminal ?? 'DEMO-1', client: c });
    const licensed = (c: DemoClient) => c.licenseExpiry >= iso;
    const lapsed = (c: DemoClient) => c.subscriptionEnd != null && c.subscriptionEnd < iso && !c.paysByMoney;

    // Women: once a cycle, from nightfall (Saturday night from 45 minutes after).
    const womenOpen = wd === 6 ? tzeit + 45 : tzeit;
    const womenClose = wd === 6 ? 23 * 60 + 30 : wd === 5 || erev ? 22 * 60 : 23 * 60;
    for (const c of women) {
      if (c.nextVisit !== k) continue;
      c.nextVisit = k + Math.max(24, Math.round(rng.around(29, 1.5)));
      if (!c.active && !rng.chance(0.1)) continue;
      if ((!licensed(c) || lapsed(c)) && !rng.chance(0.3)) continue;
      // Evenings fill in the first two hours after opening.
      const m = Math.min(womenClose - 3, womenOpen + Math.abs(rng.around(0, 55)));
      if (rng.chance(0.03)) {
        add(c, womenOpen - rng.int(5, 25)); // too early: closed to the group
        add(c, womenOpen + rng.int(1, 10));
      } else add(c, m);
      if (rng.chance(0.012)) add(c, m + rng.int(10, 40)); // back within the group's delay
    }

    // Men and annual subscribers: no one on Shabbat; few on a holiday.
    const menDay = wd !== 6;
    const factor = chag ? 0.3 : 1;
    const morning = () => rng.around(6.6 * 60, 40);
    const noon = () => 12 * 60 + rng.int(0, 175);
    if (menDay) {
      for (const c of men) {
        let p = c.habit === 'daily' ? 0.6 : c.habit === 'friday' ? (wd === 5 ? 0.55 : 0.02) : 0.035;
        if (erev) p = Math.max(p, 0.5);
        if (!c.active) p *= 0.05;
        if (!licensed(c) || lapsed(c)) p *= 0.3;
        if (!rng.chance(p * factor)) continue;
        const afternoon = (wd === 5 || erev) && rng.chance(0.5);
        if (!afternoon && rng.chance(0.03))
          add(c, 9 * 60 + 30 + rng.int(1, 40)); // after closing
        else add(c, afternoon ? noon() : morning());
        if (rng.chance(0.01)) out.push({ ...out[out.length - 1], sec: out[out.length - 1].sec + 1 }); // double tap
      }
      for (const c of annual) {
        let p = erev ? 0.55 : wd === 5 ? 0.35 : 0.18;
        if (!c.active) p *= 0.05;
        if (!rng.chance(p * factor)) {
          if (wd <= 4 && rng.chance(0.04)) add(c, 20 * 60 + rng.int(0, 140)); // evening only
          continue;
        }
        const afternoon = (wd === 5 || erev) && rng.chance(0.4);
        add(c, afternoon ? noon() : morning());
        // A second entrance the same day on a one-a-day subscription.
        if (wd <= 4 && rng.chance(0.04)) add(c, 20 * 60 + rng.int(0, 140));
      }
      for (const c of staff) if (rng.chance(0.5 * factor)) add(c, 8 * 60 + rng.int(0, 600));
    }
    // Cards the club does not know (lost, another club's, visitors).
    const unknown = rng.int(0, 2);
    for (let i = 0; i < unknown; i++) {
      const m = rng.chance(0.5) ? morning() : womenOpen + rng.int(0, 100);
      add(null, m, rng.pick(['DEMO-1', 'DEMO-2', 'DEMO-3']), String(unknownSeq++));
    }
    return out;
  }

  /** Loads money when a money payer is short, then presents the card to the engine. */
  async function present(tx: Tx, v: Visit, at: Date, date: LocalDate): Promise<void> {
    const c = v.client;
    if (c?.paysByMoney && c.active) {
      const wd = weekdayOf(date);
      const erev = wd === 5 || isErevChagCached(date);
      const price =
        c.kind === 'women'
          ? erev
            ? DEMO_PRICES.womenShabbatChag
            : DEMO_PRICES.womenWeekday
          : erev
            ? DEMO_PRICES.menFriday
            : DEMO_PRICES.men;
      if (c.balance < price && rng.chance(0.85)) {
        const amount = price * rng.int(3, 8);
        await tx.insert(balanceLedger).values({
          clubId: o.clubId,
          clientId: c.id,
          kind: 'money',
          delta: amount,
          source: 'demo',
          at: new Date(at.getTime() - rng.int(2, 15) * 60_000),
        });
        await tx
          .update(clients)
          .set({ balance: sql`${clients.balance} + ${amount}` })
          .where(eq(clients.id, c.id));
        fast?.credit(c.id, amount);
        c.balance += amount;
        stats.topUps++;
      }
    }
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

  function isErevChagCached(d: LocalDate): boolean {
    const key = isoDate(d);
    let v = erevCache.get(key);
    if (v === undefined) erevCache.set(key, (v = isErevChag(d, o.location.il)));
    return v;
  }
}

const erevCache = new Map<string, boolean>();
