import {
  addDays,
  ClientStatus,
  ClientType,
  EntranceState,
  HalachicTime,
  HOLIDAY_EVE_DAY,
  hhmm,
  isoDate,
  withIsraeliIdCheckDigit,
  type LocalDate,
} from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import { balanceLedger, clients, groups, schedules, terminals } from '../db/schema.js';
import { issueSecrets } from './terminal-secrets.js';
import type { Rng } from './random.js';

/**
 * The demo club's master data (DESIGN §9): groups with times-and-prices
 * schedules tied to nightfall in Jerusalem, three approved terminals, and
 * clients with Hebrew and English names, valid personal IDs, Israeli mobile
 * phones, card serials from 100001, subscriptions, licenses and balances.
 * Money in agorot (3000 = ₪30).
 */

/** Which population a demo client belongs to; drives how the history simulates visits. */
export type DemoKind = 'women' | 'men' | 'annual' | 'staff';

/** How a man visits: every morning, before Shabbat, or now and then. */
export type MenHabit = 'daily' | 'friday' | 'occasional';

/** A demo client as the history simulation sees it. */
export interface DemoClient {
  id: number;
  kind: DemoKind;
  habit: MenHabit;
  card: string;
  active: boolean;
  /** Inclusive last subscription day, YYYY-MM-DD, or null without one. */
  subscriptionEnd: string | null;
  licenseExpiry: string;
  /** Mirror of clients.balance (agorot) while the history runs. */
  balance: number;
  /** Loads money when short (pays per visit). */
  paysByMoney: boolean;
  /** Day index of the next visit (women: about once a cycle). */
  nextVisit: number;
  /** Preferred terminal serial. */
  terminal: string;
}

export interface DemoGroups {
  women: number;
  men: number;
  annual: number;
  staff: number;
}

/** Prices of one entrance per group, agorot. */
export const DEMO_PRICES = {
  womenWeekday: 6000,
  womenShabbatChag: 8000,
  men: 1000,
  menFriday: 1500,
  annual: 1000,
} as const;

/** DEMO-1 enrols fingerprints, cards and faces; DEMO-3 (the men's mikveh) is also the quick exit. */
export const DEMO_TERMINALS = [
  { serial: 'DEMO-1', name: 'כניסה ראשית', isMain: true, settings: { allowEnrollment: true } },
  { serial: 'DEMO-2', name: 'מקווה נשים', isMain: false, settings: {} },
  { serial: 'DEMO-3', name: 'מקווה גברים', isMain: false, settings: { quickExit: true } },
] as const;

/** A demo client's enrolment password (for enrolment at DEMO-1): 9000 + the client number. */
export const demoEnrollPassword = (clientNumber: number) => String(9000 + clientNumber);

const SUN_THU = [0, 1, 2, 3, 4];

type ScheduleValues = typeof schedules.$inferInsert;

/** Creates the groups and their schedule rows; returns the group ids. */
export async function createDemoGroups(db: Db | Tx, clubId: number): Promise<DemoGroups> {
  const [women, men, annual, staff] = await db
    .insert(groups)
    .values([
      {
        clubId,
        name: 'נשים',
        color: '#c41d7f',
        entranceState: EntranceState.Closed,
        useHalachicTimes: true,
        delayBetweenEntriesMinutes: 60,
        maxEntriesPerDay: 2,
        subscriptionEndType: 1,
        priority: 1,
      },
      {
        clubId,
        name: 'גברים',
        color: '#1677ff',
        entranceState: EntranceState.Closed,
        maxEntriesPerDay: 2,
        subscriptionEndType: 2,
      },
      {
        clubId,
        name: 'מנויי שנה',
        color: '#389e0d',
        entranceState: EntranceState.Closed,
        maxEntriesPerDayPerSubscriber: 1,
        subscriptionEndType: 4,
        daysToExtend: 7,
      },
      { clubId, name: 'צוות', color: '#8c8c8c', entranceState: EntranceState.FreeOpen },
    ])
    .returning({ id: groups.id });

  const row = (groupId: number, sortOrder: number, r: Partial<ScheduleValues>): ScheduleValues => ({
    clubId,
    groupId,
    sortOrder,
    days: SUN_THU,
    entranceState: EntranceState.Opened,
    ...r,
  });
  await db.insert(schedules).values([
    // Women: evenings from nightfall (tzeit, halachic type 7), by the lower-wins rule the
    // Friday/holiday-eve row overrides the weekday row on a holiday eve.
    row(women.id, 0, {
      fromHalachic: HalachicTime.Nightfall,
      toTime: hhmm('23:00'),
      price: DEMO_PRICES.womenWeekday,
      displayName: 'טבילה — ערב',
    }),
    row(women.id, 1, {
      days: [6],
      fromHalachic: HalachicTime.Nightfall,
      fromOffset: 45,
      toTime: hhmm('23:30'),
      price: DEMO_PRICES.womenWeekday,
      displayName: 'מוצאי שבת',
      description: 'נפתח 45 דקות אחרי צאת השבת',
    }),
    row(women.id, 2, {
      days: [5, HOLIDAY_EVE_DAY],
      fromHalachic: HalachicTime.Nightfall,
      toTime: hhmm('22:00'),
      price: DEMO_PRICES.womenShabbatChag,
      displayName: 'ליל שבת וחג',
      description: 'בתיאום מראש',
    }),
    // Men: mornings at fixed times, Friday and holiday-eve afternoons.
    row(men.id, 0, {
      days: [0, 1, 2, 3, 4, 5, HOLIDAY_EVE_DAY],
      fromTime: hhmm('05:30'),
      toTime: hhmm('09:30'),
      price: DEMO_PRICES.men,
      displayName: 'בוקר',
    }),
    row(men.id, 1, {
      days: [5, HOLIDAY_EVE_DAY],
      fromTime: hhmm('12:00'),
      toTime: hhmm('15:00'),
      price: DEMO_PRICES.menFriday,
      displayName: 'ערב שבת וחג',
    }),
    // Annual subscribers: the men's hours and weekday evenings, one entrance a day on the subscription.
    row(annual.id, 0, {
      days: [0, 1, 2, 3, 4, 5, HOLIDAY_EVE_DAY],
      fromTime: hhmm('05:30'),
      toTime: hhmm('09:30'),
      price: DEMO_PRICES.annual,
      displayName: 'בוקר',
    }),
    row(annual.id, 1, {
      fromTime: hhmm('20:00'),
      toTime: hhmm('22:30'),
      price: DEMO_PRICES.annual,
      displayName: 'ערב',
    }),
    row(annual.id, 2, {
      days: [5, HOLIDAY_EVE_DAY],
      fromTime: hhmm('12:00'),
      toTime: hhmm('15:00'),
      price: DEMO_PRICES.menFriday,
      displayName: 'ערב שבת וחג',
    }),
  ]);
  return { women: women.id, men: men.id, annual: annual.id, staff: staff.id };
}

/**
 * Creates the three approved terminals DEMO-1..3, each with a new secret;
 * returns the serial → id and serial → secret maps.
 */
export async function createDemoTerminals(
  db: Db | Tx,
  clubId: number,
): Promise<{ ids: Record<string, number>; secrets: Record<string, string> }> {
  const issued = await issueSecrets(DEMO_TERMINALS.map((t) => t.serial));
  const rows = await db
    .insert(terminals)
    .values(
      DEMO_TERMINALS.map((t, i) => ({
        clubId,
        serial: t.serial,
        name: t.name,
        isMain: t.isMain,
        approved: true,
        secretHash: issued[i].hash,
        gateOpenSeconds: 6,
        doorState: EntranceState.Opened,
        settings: t.settings,
      })),
    )
    .returning({ id: terminals.id, serial: terminals.serial });
  return {
    ids: Object.fromEntries(rows.map((r) => [r.serial, r.id])),
    secrets: Object.fromEntries(issued.map((i) => [i.serial, i.secret])),
  };
}

const CITIES = [
  'ירושלים',
  'ירושלים',
  'ירושלים',
  'ירושלים',
  'בית שמש',
  'מבשרת ציון',
  'מעלה אדומים',
  'גבעת זאב',
  'ביתר עילית',
];
const MOBILE_PREFIXES = ['50', '52', '53', '54', '58'];

/**
 * Creates `count` clients: 58% women, 26% men, 14% annual subscribers, the rest
 * staff (client type Manager). Most hold a valid subscription, some an expired
 * one, some none and pay each entrance from a money balance. Balances are
 * ledger rows (source 'demo') and clients.balance equals their sum.
 *
 * @param today the club's local date; @param historyStart the first simulated day.
 */
export async function createDemoClients(
  db: Db | Tx,
  clubId: number,
  groupIds: DemoGroups,
  count: number,
  rng: Rng,
  today: LocalDate,
  historyStart: LocalDate,
): Promise<DemoClient[]> {
  // Loaded on a first start only: faker is 0.7 s of every start otherwise (bench/restart.bench.mjs).
  const { fakerEN, fakerHE } = await import('@faker-js/faker');
  fakerHE.seed(1001);
  fakerEN.seed(1001);
  const usedIds = new Set<string>();
  const personalId = (): string => {
    for (;;) {
      const id = withIsraeliIdCheckDigit(String(rng.int(10_000_000, 39_999_999)));
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  const day = (d: LocalDate, delta: number) => isoDate(addDays(d, delta));

  const staffCount = Math.max(1, Math.round(count * 0.02));
  const values: (typeof clients.$inferInsert)[] = [];
  const sims: Omit<DemoClient, 'id'>[] = [];
  for (let i = 0; i < count; i++) {
    const r = i / count;
    const kind: DemoKind = i >= count - staffCount ? 'staff' : r < 0.58 ? 'women' : r < 0.84 ? 'men' : 'annual';
    const sex = kind === 'women' ? 'female' : 'male';
    const f = rng.chance(0.12) ? fakerEN : fakerHE;
    const firstName = f.person.firstName(sex);
    const lastName = f.person.lastName();
    const card = String(100001 + i);

    // Subscriptions: most valid through today, some expired during the history, some none.
    const roll = rng.next();
    const pValid = kind === 'women' ? 0.55 : kind === 'men' ? 0.7 : kind === 'annual' ? 0.9 : 0;
    const pExpired = kind === 'women' ? 0.1 : kind === 'men' ? 0.12 : kind === 'annual' ? 0.1 : 0;
    let subscriptionStart: string | null = null;
    let subscriptionEnd: string | null = null;
    const start = day(historyStart, -rng.int(0, 60));
    if (roll < pValid) {
      subscriptionStart = start;
      subscriptionEnd = day(today, rng.int(15, 330));
    } else if (roll < pValid + pExpired) {
      subscriptionStart = start;
      subscriptionEnd = day(today, -rng.int(10, 150));
    }
    // No subscription: pays every entrance from the balance; expired: most switched to paying.
    const paysByMoney = kind !== 'staff' && (subscriptionEnd === null || (roll >= pValid && rng.chance(0.6)));
    // Opening balance: money payers get a few entrances' worth; some subscribers keep a little.
    const price = kind === 'women' ? DEMO_PRICES.womenWeekday : DEMO_PRICES.men;
    const balance = paysByMoney ? price * rng.int(2, 6) : rng.chance(0.2) ? 500 * rng.int(1, 20) : 0;
    const licenseExpiry = rng.chance(0.06) ? day(today, -rng.int(1, 120)) : day(today, rng.int(30, 720));
    const active = kind === 'staff' || !rng.chance(0.02);
    const habitRoll = rng.next();
    const habit: MenHabit = habitRoll < 0.12 ? 'daily' : habitRoll < 0.6 ? 'friday' : 'occasional';
    const terminal =
      kind === 'women'
        ? rng.chance(0.8)
          ? 'DEMO-2'
          : 'DEMO-1'
        : kind === 'staff'
          ? 'DEMO-1'
          : rng.chance(0.75)
            ? 'DEMO-3'
            : 'DEMO-1';

    values.push({
      clubId,
      number: i + 1,
      enrollPassword: demoEnrollPassword(i + 1),
      firstName,
      lastName,
      personalId: personalId(),
      phone: `+972${rng.pick(MOBILE_PREFIXES)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`,
      city: rng.pick(CITIES),
      address: `${fakerHE.location.street()} ${rng.int(1, 120)}`,
      groupId: groupIds[kind],
      clientType: kind === 'staff' ? ClientType.Manager : ClientType.Regular,
      cardSerial: card,
      subscriptionStart,
      subscriptionEnd,
      licenseExpiry,
      status: active ? ClientStatus.Active : ClientStatus.Inactive,
      balance,
      createdAt: new Date(
        Date.UTC(historyStart.year, historyStart.month - 1, historyStart.day) - rng.int(1, 400) * 86_400_000,
      ),
    });
    sims.push({
      kind,
      habit,
      card,
      active,
      subscriptionEnd,
      licenseExpiry,
      balance,
      paysByMoney,
      // Women visit about once a cycle, starting anywhere in the first cycle.
      nextVisit: rng.int(0, 29),
      terminal,
    });
  }

  const out: DemoClient[] = [];
  const openingAt = new Date(Date.UTC(historyStart.year, historyStart.month - 1, historyStart.day) - 86_400_000);
  for (let i = 0; i < values.length; i += 500) {
    const ids = await db
      .insert(clients)
      .values(values.slice(i, i + 500))
      .returning({ id: clients.id });
    const ledger = ids
      .map((r, j) => ({ id: r.id, balance: values[i + j].balance ?? 0 }))
      .filter((x) => x.balance > 0)
      .map((x) => ({ clubId, clientId: x.id, kind: 'money', delta: x.balance, source: 'demo', at: openingAt }));
    if (ledger.length) await db.insert(balanceLedger).values(ledger);
    ids.forEach((r, j) => out.push({ id: r.id, ...sims[i + j] }));
  }
  return out;
}
