import { and, eq, gte, inArray, lte, ne, or, sql } from 'drizzle-orm';
import {
  businessMoment,
  isoDate,
  localParts,
  REASON_KEYS,
  resolveScheduleRow,
  EntranceStatus,
  type EntranceRow,
  type Identification,
  type LocalDate,
} from '@venue/domain';
import type { Db } from '../db/index.js';
import {
  balanceLedger,
  clients,
  clubs,
  entranceLogs,
  groups,
  scheduleToGroup,
  schedules,
  terminals,
} from '../db/schema.js';
import { clubLocation, clubSettings } from '../modules/club/club.service.js';
import type { EventBus } from '../realtime/event-bus.js';
import {
  decideEntrance,
  type Decision,
  type DecisionClient,
  type DecisionGroup,
  type EntranceInput,
} from './entrance.js';

/**
 * Entrance processing (DESIGN §7): read what the decision needs, decide with
 * the pure `decideEntrance`, and write the log row and the balance change in
 * one transaction, idempotent on the terminal's event id (DESIGN §8).
 */

export interface EntranceRequest {
  clubId: number;
  terminalId: number;
  identification: Identification;
  /** When the identification was presented (now, or an explicit time for offline uploads and history). */
  at: Date;
  /** The terminal's own id of this event; a resend with the same id returns the first result. */
  eventId?: string;
}

export interface EntranceResult extends Decision {
  /** Id of the entrance_logs row. */
  logId: number;
  clientId: number | null;
  clientName: string | null;
  /** The row as the entrance report and the live feed show it. */
  row: EntranceRow;
  /** True when this answers a resend of an event already decided. */
  duplicate: boolean;
}

export interface ProcessOptions {
  /** Publish the row on the bus (default true); the demo history generator passes false. */
  publish?: boolean;
}

/** Rows of general schedules (linked through schedule_to_group) rank below the group's own rows. */
const GENERAL_ROW_OFFSET = 1_000_000;

class DuplicateEvent extends Error {}

/** The UTC instant of a wall-clock time (minutes after midnight of `d`) in a time zone. */
export function zonedInstant(d: LocalDate, minutes: number, timeZone: string): Date {
  const target = Date.UTC(d.year, d.month - 1, d.day, 0, minutes);
  let t = target;
  for (let i = 0; i < 3; i++) {
    const p = localParts(new Date(t), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    if (shown === target) break;
    t += target - shown;
  }
  return new Date(t);
}

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

/**
 * Decides one entrance and records it (DESIGN §7, §8; seed 000 §4).
 *
 * Reads: the terminal with its club (settings, location), the client by
 * identification (`card` → card serial; `code` → client number; fingerprint
 * and face are not matched yet, so they answer 8) with its group, the group's
 * schedule rows and the client's and club's recent approved entrances.
 * Writes in one transaction: the entrance_logs row and, for an entrance paid
 * by money, `clients.balance -= amount` guarded by `balance >= amount` plus a
 * balance_ledger row (kind 'money', source 'entrance'). A concurrent spend
 * that empties the balance turns the decision into a refusal (2 or 5).
 *
 * Idempotent on (terminalId, eventId): a resend returns the original result
 * with `duplicate: true` and writes nothing. Publishes the row on the bus as
 * `entrance` unless `opts.publish` is false.
 *
 * @param bus may be null when nothing listens (history generation).
 */
export async function processEntrance(
  db: Db,
  bus: EventBus | null,
  req: EntranceRequest,
  opts: ProcessOptions = {},
): Promise<EntranceResult> {
  const { clubId, terminalId, identification, at, eventId } = req;
  if (eventId) {
    const existing = await findByEvent(db, clubId, terminalId, eventId);
    if (existing) return existing;
  }

  const [[t], found] = await Promise.all([
    db
      .select({
        id: terminals.id,
        name: terminals.name,
        approved: terminals.approved,
        gateOpenSeconds: terminals.gateOpenSeconds,
        settings: clubs.settings,
        location: clubs.location,
      })
      .from(terminals)
      .innerJoin(clubs, eq(clubs.id, terminals.clubId))
      .where(and(eq(terminals.id, terminalId), eq(terminals.clubId, clubId), eq(terminals.deleted, false)))
      .limit(1),
    findClient(db, clubId, identification),
  ]);
  const client = found?.client ?? null;
  const group = found?.group ?? null;

  const terminal = t ? { id: t.id, approved: t.approved, gateOpenSeconds: t.gateOpenSeconds } : null;
  const location = clubLocation({ location: t?.location ?? null });
  const bm = businessMoment(at, location.timeZone, found?.newDayStartHour ?? 0);
  const input: EntranceInput = {
    terminal,
    client,
    group,
    row: null,
    now: at,
    businessDate: isoDate(bm.date),
    lastApprovedAt: null,
    approvedToday: 0,
    approvedTodayBySubscription: 0,
    clubLoad: 0,
    loadLimit: { people: 0, minutes: 0 },
  };

  // Only an approved terminal with a known client needs the schedule and the counts.
  if (t?.approved && client && group) {
    const settings = clubSettings({ settings: t.settings });
    input.loadLimit = { people: settings.entrancesLimitPeople, minutes: settings.entrancesLimitMinutes };
    const dayStart = zonedInstant(bm.date, (found?.newDayStartHour ?? 0) * 60, location.timeZone);
    const [rows, stats] = await Promise.all([
      loadScheduleRows(db, clubId, group.id),
      loadStats(db, clubId, client.id, at, dayStart, group.delayBetweenEntriesMinutes, input.loadLimit),
    ]);
    input.row = resolveScheduleRow(rows, terminalId, bm, location);
    Object.assign(input, stats);
  }

  let decision = decideEntrance(input);
  let logId: number;
  try {
    logId = await db.transaction(async (tx) => {
      if (decision.amount > 0 && client) {
        const paid = await tx
          .update(clients)
          .set({ balance: sql`${clients.balance} - ${decision.amount}` })
          .where(and(eq(clients.id, client.id), gte(clients.balance, decision.amount)))
          .returning({ balance: clients.balance });
        if (paid.length === 0) {
          // Spent concurrently: decide again as a client who cannot pay.
          decision = decideEntrance({ ...input, client: { ...client, balance: decision.amount - 1 } });
        }
      }
      const [log] = await tx
        .insert(entranceLogs)
        .values({
          clubId,
          terminalId,
          clientId: client?.id ?? null,
          groupId: client?.groupId ?? null,
          at,
          status: decision.status,
          reason: decision.reason,
          identificationKind: identification.kind,
          amount: decision.amount,
          paymentType: decision.paymentType,
          eventId: eventId ?? null,
        })
        .onConflictDoNothing({ target: [entranceLogs.terminalId, entranceLogs.eventId] })
        .returning({ id: entranceLogs.id });
      if (!log) throw new DuplicateEvent();
      if (decision.amount > 0 && client) {
        await tx.insert(balanceLedger).values({
          clubId,
          clientId: client.id,
          kind: 'money',
          delta: -decision.amount,
          source: 'entrance',
          sourceId: log.id,
          at,
        });
      }
      return log.id;
    });
  } catch (err) {
    if (err instanceof DuplicateEvent && eventId) {
      const existing = await findByEvent(db, clubId, terminalId, eventId);
      if (existing) return existing;
    }
    throw err;
  }

  const row: EntranceRow = {
    id: logId,
    at: at.toISOString(),
    clientId: client?.id ?? null,
    clientNumber: found?.number ?? null,
    clientName: found ? fullName(found.firstName, found.lastName) : null,
    groupName: found?.groupName ?? null,
    terminalId,
    terminalName: t?.name ?? null,
    status: decision.status,
    reason: decision.reason,
    identificationKind: identification.kind,
    amount: decision.amount,
    paymentType: decision.paymentType,
  };
  if (opts.publish !== false) bus?.publish('entrance', { clubId, row });
  return { ...decision, logId, clientId: row.clientId, clientName: row.clientName, row, duplicate: false };
}

interface FoundClient {
  client: DecisionClient;
  group: (DecisionGroup & { id: number }) | null;
  newDayStartHour: number;
  number: number;
  firstName: string;
  lastName: string;
  groupName: string | null;
}

/** The client an identification names, with its group (not deleted); null when none. */
async function findClient(db: Db, clubId: number, ident: Identification): Promise<FoundClient | null> {
  let match;
  if (ident.kind === 'card') match = eq(clients.cardSerial, ident.value);
  else if (ident.kind === 'code' && /^\d{1,9}$/.test(ident.value)) match = eq(clients.number, Number(ident.value));
  else return null; // fingerprint and face matching come with the biometric issue
  const [r] = await db
    .select({
      id: clients.id,
      number: clients.number,
      firstName: clients.firstName,
      lastName: clients.lastName,
      status: clients.status,
      clientType: clients.clientType,
      subscriptionStart: clients.subscriptionStart,
      subscriptionEnd: clients.subscriptionEnd,
      licenseExpiry: clients.licenseExpiry,
      balance: clients.balance,
      groupId: clients.groupId,
      g: {
        id: groups.id,
        name: groups.name,
        allowEntrance: groups.allowEntrance,
        entranceState: groups.entranceState,
        delayBetweenEntriesMinutes: groups.delayBetweenEntriesMinutes,
        maxEntriesPerDay: groups.maxEntriesPerDay,
        maxEntriesPerDayPerSubscriber: groups.maxEntriesPerDayPerSubscriber,
        newDayStartHour: groups.newDayStartHour,
      },
    })
    .from(clients)
    .leftJoin(groups, and(eq(groups.id, clients.groupId), eq(groups.deleted, false)))
    .where(and(eq(clients.clubId, clubId), match, ne(clients.status, 3)))
    .limit(1);
  if (!r) return null;
  return {
    client: {
      id: r.id,
      status: r.status,
      clientType: r.clientType,
      subscriptionStart: r.subscriptionStart,
      subscriptionEnd: r.subscriptionEnd,
      licenseExpiry: r.licenseExpiry,
      balance: r.balance,
      groupId: r.groupId,
    },
    group: r.g?.id != null ? r.g : null,
    newDayStartHour: r.g?.newDayStartHour ?? 0,
    number: r.number,
    firstName: r.firstName,
    lastName: r.lastName,
    groupName: r.g?.name ?? null,
  };
}

/** The group's own schedule rows and the general rows linked to it (ranked below its own). */
async function loadScheduleRows(db: Db, clubId: number, groupId: number) {
  const linked = db
    .select({ id: scheduleToGroup.scheduleId })
    .from(scheduleToGroup)
    .where(and(eq(scheduleToGroup.clubId, clubId), eq(scheduleToGroup.groupId, groupId)));
  const rows = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.clubId, clubId), or(eq(schedules.groupId, groupId), inArray(schedules.id, linked))));
  return rows.map((r) => ({
    ...r,
    days: r.days.map(Number),
    sortOrder: r.groupId === groupId ? r.sortOrder : r.sortOrder - GENERAL_ROW_OFFSET,
  }));
}

/** The client's last approved entrance and today's counts, and the club's load, up to `at`. */
async function loadStats(
  db: Db,
  clubId: number,
  clientId: number,
  at: Date,
  dayStart: Date,
  delayMinutes: number,
  loadLimit: { people: number; minutes: number },
): Promise<Pick<EntranceInput, 'lastApprovedAt' | 'approvedToday' | 'approvedTodayBySubscription' | 'clubLoad'>> {
  const lookBackMs = Math.max(delayMinutes * 60_000, 60_000);
  const from = new Date(Math.min(dayStart.getTime(), at.getTime() - lookBackMs));
  const dayStartIso = dayStart.toISOString();
  const loadOn = loadLimit.people > 0 && loadLimit.minutes > 0;
  const [[mine], load] = await Promise.all([
    db
      .select({
        lastAt: sql<string | Date | null>`max(${entranceLogs.at})`,
        today: sql<number>`(count(*) filter (where ${entranceLogs.at} >= ${dayStartIso}::timestamptz))::int`,
        todayBySubscription: sql<number>`(count(*) filter (where ${entranceLogs.at} >= ${dayStartIso}::timestamptz and ${entranceLogs.paymentType} = 1))::int`,
      })
      .from(entranceLogs)
      .where(
        and(
          eq(entranceLogs.clientId, clientId),
          eq(entranceLogs.status, EntranceStatus.Approved),
          gte(entranceLogs.at, from),
          lte(entranceLogs.at, at),
        ),
      ),
    loadOn
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(entranceLogs)
          .where(
            and(
              eq(entranceLogs.clubId, clubId),
              eq(entranceLogs.status, EntranceStatus.Approved),
              sql`${entranceLogs.at} > ${new Date(at.getTime() - loadLimit.minutes * 60_000).toISOString()}::timestamptz`,
              lte(entranceLogs.at, at),
            ),
          )
      : Promise.resolve([{ n: 0 }]),
  ]);
  return {
    lastApprovedAt: mine?.lastAt ? new Date(mine.lastAt) : null,
    approvedToday: Number(mine?.today ?? 0),
    approvedTodayBySubscription: Number(mine?.todayBySubscription ?? 0),
    clubLoad: Number(load[0]?.n ?? 0),
  };
}

/** The result recorded for a terminal's event id, or null. */
async function findByEvent(
  db: Db,
  clubId: number,
  terminalId: number,
  eventId: string,
): Promise<EntranceResult | null> {
  const [r] = await db
    .select({
      id: entranceLogs.id,
      at: entranceLogs.at,
      clientId: entranceLogs.clientId,
      status: entranceLogs.status,
      reason: entranceLogs.reason,
      identificationKind: entranceLogs.identificationKind,
      amount: entranceLogs.amount,
      paymentType: entranceLogs.paymentType,
      clientNumber: clients.number,
      firstName: clients.firstName,
      lastName: clients.lastName,
      groupName: groups.name,
      terminalName: terminals.name,
      gateOpenSeconds: terminals.gateOpenSeconds,
    })
    .from(entranceLogs)
    .leftJoin(clients, eq(clients.id, entranceLogs.clientId))
    .leftJoin(groups, eq(groups.id, entranceLogs.groupId))
    .leftJoin(terminals, eq(terminals.id, entranceLogs.terminalId))
    .where(
      and(eq(entranceLogs.terminalId, terminalId), eq(entranceLogs.eventId, eventId), eq(entranceLogs.clubId, clubId)),
    )
    .limit(1);
  if (!r) return null;
  const clientName = r.firstName != null ? fullName(r.firstName, r.lastName ?? '') : null;
  const approved = r.status === EntranceStatus.Approved;
  const row: EntranceRow = {
    id: r.id,
    at: r.at.toISOString(),
    clientId: r.clientId,
    clientNumber: r.clientNumber,
    clientName,
    groupName: r.groupName,
    terminalId,
    terminalName: r.terminalName,
    status: r.status,
    reason: r.reason,
    identificationKind: r.identificationKind,
    amount: r.amount,
    paymentType: r.paymentType,
  };
  return {
    status: r.status,
    reason: r.reason,
    paymentType: r.paymentType,
    amount: r.amount,
    openGate: approved,
    gateOpenSeconds: approved ? (r.gateOpenSeconds ?? 0) : 0,
    messageKey: REASON_KEYS[r.reason],
    logId: r.id,
    clientId: r.clientId,
    clientName,
    row,
    duplicate: true,
  };
}
