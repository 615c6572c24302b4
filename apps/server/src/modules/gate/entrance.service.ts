import { and, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  localToInstant,
  REASON_KEYS,
  resolveScheduleRow,
  EntrancePaymentType,
  EntranceStatus,
  RAPID_REENTRY_SECONDS,
  Reason,
  type EntranceRow,
  type Identification,
  type ScheduleRowTimes,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { clients, entranceLogs, groups, terminals } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { clubLocation, clubSettings } from '../club/club.service.js';
import { dataKeys, mac, type DataKeys } from '../../lib/crypto.js';
import type { EventBus } from '../../lib/event-bus.js';
import {
  baseEntranceInput,
  decideEntrance,
  type Decision,
  type DecisionClient,
  type DecisionGroup,
  type DecisionPayer,
} from './entrance.js';
import { KeyedSerializer } from './batcher.js';
import { DuplicateEvent, gateStatements, readItemFor, type ReadRow } from './gate-batch.js';
import { writeLedger, type LedgerEntry } from '../purchases/ledger.js';
import { safetyNow } from './safety.service.js';
import { areaState, occupancyNow, recordAreaEntry } from './occupancy.js';
import { bookingGateCheck, checkInAtGate } from '../appointments/booking-gate.js';
import { claimGateCode, isBookingCode, releaseGateCode, type GateCodeCheck } from '../appointments/booking-codes.js';

/** The HMAC index of a biometric template in a club (biometric_templates.template_mac). */
export function templateMac(keys: DataKeys, clubId: number, kind: string, template: string): string {
  return mac(keys, template, `club:${clubId}:${kind}`);
}

/**
 * Entrance processing (DESIGN §7): read what the decision needs, decide with
 * the pure `decideEntrance`, and write the log row and the balance change in
 * one transaction, idempotent on the terminal's event id (DESIGN §8).
 */

/**
 * The front desk's identification (docs/front-desk.md): the client chosen on the screen, by id
 * (`value` is the client id). Never sent by a terminal (the protocol's Identification has no such
 * kind); logged with identification kind `desk`.
 */
export interface DeskIdentification {
  kind: 'desk';
  value: string;
}

export interface EntranceRequest {
  clubId: number;
  terminalId: number;
  identification: Identification | DeskIdentification;
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
  /**
   * Decide without writing anything (no log row, no charge; `logId` 0): paying at the gate
   * (realtime/handlers/purchase.ts) checks the OpenWithPay offer before it charges.
   */
  decideOnly?: boolean;
}

/** Rows of general schedules (linked through schedule_to_group) rank below the group's own rows. */
const GENERAL_ROW_OFFSET = 1_000_000;

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

/**
 * Decides one entrance and records it (DESIGN §7, §8; seed 000 §4).
 *
 * Reads: the terminal with its club (settings, location), the client by
 * identification (`card` → card serial; `code` → client code, else client
 * number; `fingerprint` and `face` → the enrolled template with the same
 * keyed HMAC, biometric_templates; `system` → none, 8) with its group, the group's
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
  const { clubId, identification } = req;
  // The same identification presented again is decided after the first one is written (rapid
  // re-entry, entries per day), also when both arrive in one batch (modules/gate/batcher.ts).
  return identification.kind === 'system'
    ? decideAndRecord(db, bus, req, opts)
    : sameIdentification.run(`${clubId}:${identification.kind}:${identification.value}`, () =>
        decideAndRecord(db, bus, req, opts),
      );
}

/**
 * Takes the client's rapid re-entry guard for an approval at `at` inside a
 * transaction (the money path; modules/gate/gate-batch.ts does the same in its
 * INSERT): true when no other approval of the client lies within
 * RAPID_REENTRY_SECONDS, and the guard now holds `at` (or a later one).
 */
async function takeGuard(tx: Tx, clubId: number, clientId: number, at: Date): Promise<boolean> {
  const res = await queryRows(
    tx,
    sql`insert into client_entry_guard as g (club_id, client_id, at)
    values (${clubId}, ${clientId}, ${at.toISOString()}::timestamptz)
    on conflict (club_id, client_id) do update set at = greatest(g.at, excluded.at)
      where abs(extract(epoch from excluded.at - g.at)) >= ${RAPID_REENTRY_SECONDS}
    returning client_id`,
  );
  return res.length > 0;
}

/** A promise's outcome without a rejection left unhandled while other work is awaited. */
function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** One identification at a time per club and value, in this process (see processEntrance). */
const sameIdentification = new KeyedSerializer();

/**
 * Reads, decides, records and publishes one entrance (see processEntrance). A resend is detected
 * by the log row's unique (terminal_id, event_id) at insert time, so the common case (a new event)
 * costs no extra query; a resend's work is rolled back and the first result answered.
 */
async function decideAndRecord(
  db: Db,
  bus: EventBus | null,
  req: EntranceRequest,
  opts: ProcessOptions,
): Promise<EntranceResult> {
  const { clubId, terminalId, eventId } = req;
  const code = await presentedCode(db, req, opts.decideOnly === true);
  let read: EntranceRead;
  let p: PendingEntrance;
  try {
    read = await readEntrance(db, code.readAs);
    if (code.check && code.check.kind !== 'ok') read.input.bookingCode = code.check.kind;
    p = decide(req, read);
  } catch (err) {
    if (code.check?.kind === 'ok' && !opts.decideOnly) await releaseGateCode(db, clubId, code.check.codeId);
    throw err;
  }
  let logId: number;
  const logOnly = !p.client || (p.decision.amount === 0 && p.decision.bonusUsed === 0);
  // Admitted in her booking's window: the booking is checked in (docs/appointments.md "At the gate").
  // When the log row is the only other write, both go to the database at once (the answer waits
  // for the slower, not for both in turn; bench/appointments.bench.mjs); a resend's or a rapid
  // re-entry's check-in finds her booking already checked in by the first admission.
  const checkIn =
    read.input.booking === 'inWindow' && !opts.decideOnly && p.client && p.decision.status === EntranceStatus.Approved
      ? p.client.id
      : null;
  const early =
    checkIn !== null && logOnly
      ? settle(checkInAtGate(db, clubId, checkIn, req.at, (x) => gateStatements(db).checkIn(x)))
      : null;
  try {
    // Performance (gate benchmark, bench/gate.bench.mjs): when no money or bonus moves — the common
    // case: subscriptions, refusals — the log row is the only write, and one INSERT statement is
    // atomic by itself: no BEGIN/COMMIT round trips, the pooled connection is held for one statement.
    logId = opts.decideOnly ? 0 : logOnly ? await recordLogOnly(db, p) : await recordWithPayment(db, p);
  } catch (err) {
    if (code.check?.kind === 'ok' && !opts.decideOnly) await releaseGateCode(db, clubId, code.check.codeId);
    if (err instanceof DuplicateEvent && eventId) {
      const existing = await findByEvent(db, clubId, terminalId, eventId);
      if (existing) return existing;
    }
    throw err;
  }
  // A one-time code is spent by an admission only: any other rule's refusal gives it back.
  if (code.check?.kind === 'ok' && !opts.decideOnly && p.decision.status !== EntranceStatus.Approved) {
    await releaseGateCode(db, clubId, code.check.codeId);
  }
  const row = entranceRow(req, read, p.decision, logId);
  // An admitted client is inside the terminal's area now (docs/gate-safety.md "Occupancy").
  const area = read.input.area;
  if (area && !opts.decideOnly && p.client && p.decision.status === EntranceStatus.Approved) {
    await recordAreaEntry(db, {
      clubId,
      areaId: area.id,
      clientId: p.client.id,
      terminalId,
      at: req.at,
      passback: p.decision.passback === true,
    });
  }
  if (early) {
    const done = await early;
    if (done.error) throw done.error;
  } else if (checkIn !== null) {
    await checkInAtGate(db, clubId, checkIn, req.at, (x) => gateStatements(db).checkIn(x));
  }
  if (opts.publish !== false && !opts.decideOnly) bus?.publish('entrance', { clubId, row });
  return { ...p.decision, logId, clientId: row.clientId, clientName: row.clientName, row, duplicate: false };
}

/**
 * A one-time booking code presented as a `code` identification (docs/appointments.md "The one-time
 * code"): claimed (or only read, when nothing is written), and the client it names read by id.
 * Any other identification is read as presented (`check` null).
 */
async function presentedCode(
  db: Db,
  req: EntranceRequest,
  peek: boolean,
): Promise<{ check: GateCodeCheck | null; readAs: EntranceRequest }> {
  const { identification } = req;
  if (identification.kind !== 'code' || !isBookingCode(identification.value)) return { check: null, readAs: req };
  const check = await claimGateCode(db, req.clubId, identification.value, req.at, peek);
  const readAs: EntranceRequest =
    check.clientId == null
      ? { ...req, identification: { kind: 'system', value: '' } }
      : { ...req, identification: { kind: 'desk', value: String(check.clientId) } };
  return { check, readAs };
}

/** What the gate would decide for one presentation now, and what it read (nothing written). */
export interface EntrancePreview {
  /** The decision's input: terminal, client, group, schedule row in force, counts. */
  input: EntranceInput;
  decision: Decision;
  /** The terminal as read, or null when it is not a live terminal of the club. */
  terminal: { id: number; name: string; approved: boolean; gateOpenSeconds: number } | null;
  /** The entrance as the entrance report and the live feed would show it (id 0: not written). */
  row: EntranceRow;
}

/**
 * The decision of a presentation, read exactly as `processEntrance` reads it, written nowhere
 * (the front desk's verdict and its checks before a check-in or a sale, docs/front-desk.md).
 */
export async function previewEntrance(db: Db, req: EntranceRequest): Promise<EntrancePreview> {
  const code = await presentedCode(db, req, true);
  const read = await readEntrance(db, code.readAs);
  if (code.check && code.check.kind !== 'ok') read.input.bookingCode = code.check.kind;
  const decision = decideEntrance(read.input);
  const t = read.terminal;
  return {
    input: read.input,
    decision,
    terminal: t ? { id: t.id, name: t.name, approved: t.approved, gateOpenSeconds: t.gateOpenSeconds } : null,
    row: entranceRow(req, read, decision, 0),
  };
}

/**
 * Writes an entrance admitted by a payment (status 1, reason 7 EntryByPayment, payment type None,
 * the entrance's price as `amount`, the purchase that paid it), inside the purchase's transaction:
 * paying at the gate (modules/gate/kiosk.service.ts) and the front desk's sale. Returns its id.
 */
export async function writePaidEntrance(
  tx: Tx,
  v: {
    clubId: number;
    terminalId: number;
    clientId: number | null;
    groupId: number | null;
    at: Date;
    identificationKind: string;
    amount: number;
    eventId: string;
    purchaseId: number;
  },
): Promise<number> {
  const [log] = await tx
    .insert(entranceLogs)
    .values({
      ...v,
      status: EntranceStatus.Approved,
      reason: Reason.EntryByPayment,
      paymentType: EntrancePaymentType.None,
    })
    .returning({ id: entranceLogs.id });
  return log.id;
}

/** The decision's input with the business moment it was computed for. */
type EntranceInput = ReturnType<typeof baseEntranceInput>;

/** What an entrance reads: the terminal with its club, the client with its group, and the decision's input. */
interface EntranceRead {
  terminal: FoundTerminal | undefined;
  found: FoundClient | null;
  input: EntranceInput;
}

/**
 * Reads what the decision needs (DESIGN §7). Performance (bench/gate.bench.mjs): the terminal with
 * its club and the client with everything the decision needs come in one statement, batched with
 * concurrent entrances (modules/gate/gate-batch.ts). Only an approved terminal with a known client in a
 * group needs the schedule row, the day's counts and the club's load.
 */
async function readEntrance(db: Db, req: EntranceRequest): Promise<EntranceRead> {
  const { clubId, terminalId, identification, at } = req;
  const mac =
    identification.kind === 'fingerprint' || identification.kind === 'face'
      ? templateMac(await dataKeys(db), clubId, identification.kind, identification.value)
      : null;
  // 'system' identifies no client: an empty card serial matches none, and the terminal still comes back.
  const item = readItemFor(clubId, terminalId, identification, at, mac) ?? {
    clubId,
    terminalId,
    shape: 'card' as const,
    value: '',
    number: null,
    kind: null,
    mac: null,
    at,
  };
  const [r, safety, occupancy] = await Promise.all([
    gateStatements(db).read(item),
    safetyNow(db, clubId),
    occupancyNow(db, clubId),
  ]);
  const t = r.t_id != null ? terminalFromRow(r) : undefined;
  const found = r.id != null ? clientFromRow(r) : null;
  const location = clubLocation({ location: t?.location ?? null });
  const input = baseEntranceInput({
    terminal: t ? { id: t.id, approved: t.approved, gateOpenSeconds: t.gateOpenSeconds, doorState: t.doorState } : null,
    client: found?.client ?? null,
    group: found?.group ?? null,
    now: at,
    timeZone: location.timeZone,
    newDayStartHour: found?.newDayStartHour ?? 0,
  });
  // The club's emergency, from memory (modules/gate/safety.service.ts): no query per decision.
  input.safety = {
    mode: safety.state.mode,
    override: found != null && safety.overrides.has(found.client.id),
  };
  // The terminal's area, from memory (modules/gate/occupancy.ts): capacity and anti-passback.
  input.area = areaState(occupancy, terminalId, found?.client.id ?? null, at);
  if (t?.approved && found?.group && input.safety.mode === 'normal') {
    await addCounts(db, req, input, { settings: t.settings, found, location });
  }
  return { terminal: t, found, input };
}

/**
 * Fills in the decision input's schedule row, load limit and counts (seed 001 §3): approved
 * entrances of the client's business day (all, by subscription, on the parent's subscription),
 * its last approval, and the club's approved entrances within the load limit's minutes.
 */
async function addCounts(
  db: Db,
  req: EntranceRequest,
  input: EntranceInput,
  c: { settings: unknown; found: FoundClient; location: ReturnType<typeof clubLocation> },
): Promise<void> {
  const { found, location } = c;
  const bm = input.businessMoment;
  const settings = clubSettings({ settings: c.settings });
  input.loadLimit = { people: settings.entrancesLimitPeople, minutes: settings.entrancesLimitMinutes };
  const dayStart = localToInstant(bm.date, found.newDayStartHour * 3600, location.timeZone).getTime();
  input.row = resolveScheduleRow(found.rows, req.terminalId, bm, location);
  input.lastApprovedAt = found.lastApprovedAt;
  for (const [ms, paymentType] of found.recent) {
    if (ms < dayStart) continue;
    input.approvedToday++;
    if (paymentType === EntrancePaymentType.Subscription) input.approvedTodayBySubscription++;
  }
  input.parentSubscriptionUsesToday = found.parentRecent.filter((ms) => ms >= dayStart).length;
  // Appointments: a map lookup per decision (the club's bookings are cached, modules/appointments/booking-gate.ts).
  if (found.group) input.booking = await bookingGateCheck(db, req.clubId, found.client.id, found.group.id, req.at);
  if (input.loadLimit.people > 0 && input.loadLimit.minutes > 0) {
    input.clubLoad = await clubLoad(db, req.clubId, req.at, input.loadLimit.minutes);
  }
}

/** An entrance being recorded: its decision may still change when the guard or the balance says so. */
interface PendingEntrance {
  req: EntranceRequest;
  input: EntranceInput;
  client: DecisionClient | null;
  decision: Decision;
  /** The refusal reason the rapid re-entry rule gives when another approval holds the client's guard; null: none applies. */
  rapidReason: number | null;
}

/**
 * Decides with the pure `decideEntrance`. One person, one moment (docs/entrance-reasons.md): an
 * approval the rapid re-entry rule applies to takes the client's guard in the statement that
 * writes it; when another approval of the client (by another identification, terminal or server
 * instance) holds it, this one becomes the refusal the rule gives (`rapidRefusal`).
 */
function decide(req: EntranceRequest, read: EntranceRead): PendingEntrance {
  const client = read.found?.client ?? null;
  const p: PendingEntrance = {
    req,
    input: read.input,
    client,
    decision: decideEntrance(read.input),
    rapidReason: null,
  };
  if (client && p.decision.status === EntranceStatus.Approved) {
    const r = rapidRefusal(p);
    if (r.status === EntranceStatus.RapidReEntry) p.rapidReason = r.reason;
  }
  return p;
}

/** The decision as if another approval of the client had just happened (rapid re-entry). */
const rapidRefusal = (p: PendingEntrance) => decideEntrance({ ...p.input, lastApprovedAt: p.req.at });

/** The entrance_logs values of a pending entrance. */
function logValues(p: PendingEntrance) {
  const { clubId, terminalId, at, identification, eventId } = p.req;
  return {
    clubId,
    terminalId,
    clientId: p.client?.id ?? null,
    groupId: p.client?.groupId ?? null,
    at,
    status: p.decision.status,
    reason: p.decision.reason,
    identificationKind: identification.kind,
    amount: p.decision.amount,
    paymentType: p.decision.paymentType,
    eventId: eventId ?? null,
    payerClientId: p.decision.payerClientId,
  };
}

/** Records an entrance that moves no money: one guarded INSERT (modules/gate/gate-batch.ts), batched with others. */
async function recordLogOnly(db: Db, p: PendingEntrance): Promise<number> {
  const logged = await gateStatements(db).insert({ ...logValues(p), rapidReason: p.rapidReason });
  if (logged.status === EntranceStatus.RapidReEntry && p.decision.status !== EntranceStatus.RapidReEntry) {
    p.decision = rapidRefusal(p);
  }
  return logged.id;
}

/**
 * Records an entrance paid by money or bonus, in one transaction: the rapid re-entry guard, the
 * guarded spend, the log row and its balance_ledger rows (money: the payer's, source 'entrance';
 * bonus: the client's).
 * @throws DuplicateEvent when the terminal's event id is already logged (rolled back).
 */
async function recordWithPayment(db: Db, p: PendingEntrance): Promise<number> {
  const { clubId, at } = p.req;
  const client = p.client!;
  return db.transaction(async (tx) => {
    if (p.rapidReason != null && !(await takeGuard(tx, clubId, client.id, at))) p.decision = rapidRefusal(p);
    await spend(tx, p);
    const [log] = await tx
      .insert(entranceLogs)
      .values(logValues(p))
      .onConflictDoNothing({ target: [entranceLogs.clubId, entranceLogs.terminalId, entranceLogs.eventId] })
      .returning({ id: entranceLogs.id });
    if (!log) throw new DuplicateEvent();
    const { amount, bonusUsed, payerClientId } = p.decision;
    const ledger: LedgerEntry[] = [];
    if (amount > 0)
      ledger.push({ clientId: payerClientId ?? client.id, kind: 'money', delta: -amount, source: 'entrance' });
    if (bonusUsed > 0) ledger.push({ clientId: client.id, kind: 'bonus', delta: -bonusUsed, source: 'entrance' });
    await writeLedger(tx, clubId, ledger, { sourceId: log.id, at });
    return log.id;
  });
}

/**
 * Takes the entrance's money (from the payer) or bonus entries (from the client), guarded by
 * `balance >= amount`; when spent concurrently, decides again as a client (or parent) who cannot
 * pay that way (at most 3 times).
 */
async function spend(tx: Tx, p: PendingEntrance): Promise<void> {
  const client = p.client!;
  for (let attempt = 0; attempt < 3; attempt++) {
    const { amount, bonusUsed } = p.decision;
    if (amount > 0) {
      const payer = p.decision.payerClientId ?? client.id;
      const paid = await tx
        .update(clients)
        .set({ balance: sql`${clients.balance} - ${amount}` })
        .where(and(eq(clients.id, payer), gte(clients.balance, amount)))
        .returning({ id: clients.id });
      if (paid.length > 0) return;
      const broke = amount - 1;
      const c = p.input.client!;
      p.input.client =
        payer === c.id ? { ...c, balance: broke } : { ...c, parent: c.parent && { ...c.parent, balance: broke } };
    } else if (bonusUsed > 0) {
      const used = await tx
        .update(clients)
        .set({ bonusEntries: sql`${clients.bonusEntries} - ${bonusUsed}` })
        .where(and(eq(clients.id, client.id), gte(clients.bonusEntries, bonusUsed)))
        .returning({ id: clients.id });
      if (used.length > 0) return;
      p.input.client = { ...p.input.client!, bonusEntries: 0 };
    } else return;
    p.decision = decideEntrance(p.input);
  }
}

/** The entrance's row as the entrance report and the live feed show it. */
function entranceRow(req: EntranceRequest, read: EntranceRead, decision: Decision, logId: number): EntranceRow {
  const { found } = read;
  return {
    id: logId,
    at: req.at.toISOString(),
    clientId: found?.client.id ?? null,
    clientNumber: found?.number ?? null,
    clientName: found ? fullName(found.firstName, found.lastName) : null,
    groupName: found?.groupName ?? null,
    terminalId: req.terminalId,
    terminalName: read.terminal?.name ?? null,
    status: decision.status,
    reason: decision.reason,
    identificationKind: req.identification.kind,
    amount: decision.amount,
    paymentType: decision.paymentType,
  };
}

/** The terminal of the entrance with its club's settings and location (null: not a live terminal of the club). */
interface FoundTerminal {
  id: number;
  name: string;
  approved: boolean;
  gateOpenSeconds: number;
  doorState: number;
  settings: unknown;
  location: unknown;
}

interface FoundClient {
  client: DecisionClient;
  group: DecisionGroup | null;
  newDayStartHour: number;
  number: number;
  firstName: string;
  lastName: string;
  groupName: string | null;
  /** The group's schedule rows (own and linked general rows), ready for resolveScheduleRow. */
  rows: (ScheduleRowTimes & { price: number })[];
  lastApprovedAt: Date | null;
  /** Approved entrances of the last 2 days: [epoch ms, payment type]. */
  recent: [number, number][];
  /** Approved entrances of the last 2 days on the parent's subscription (the parent's and its children's), epoch ms. */
  parentRecent: number[];
}

/** A schedules row as json_agg renders it (column names). */
interface ScheduleJson {
  id: number;
  group_id: number | null;
  sort_order: number;
  days: number[];
  from_time: number | null;
  to_time: number | null;
  from_halachic: number | null;
  from_offset: number;
  to_halachic: number | null;
  to_offset: number;
  from_date: string | null;
  to_date: string | null;
  price: number;
  entrance_state: number;
  terminal_id: number | null;
}

/** Rows of general schedules (linked through schedule_to_group) rank below the group's own rows. */
function scheduleRow(r: ScheduleJson, groupId: number): ScheduleRowTimes & { price: number } {
  return {
    id: r.id,
    sortOrder: r.group_id === groupId ? r.sort_order : r.sort_order - GENERAL_ROW_OFFSET,
    days: r.days.map(Number),
    fromTime: r.from_time,
    toTime: r.to_time,
    fromHalachic: r.from_halachic,
    fromOffset: r.from_offset,
    toHalachic: r.to_halachic,
    toOffset: r.to_offset,
    fromDate: r.from_date,
    toDate: r.to_date,
    terminalId: r.terminal_id,
    entranceState: r.entrance_state,
    price: r.price,
  };
}

/** The terminal of a read row (modules/gate/gate-batch.ts `readText`), when it is a live terminal of the club. */
function terminalFromRow(r: ReadRow): FoundTerminal {
  return {
    id: Number(r.t_id),
    name: String(r.t_name),
    approved: Boolean(r.t_approved),
    gateOpenSeconds: Number(r.t_gate_open_seconds),
    doorState: Number(r.t_door_state),
    settings: json(r.club_settings),
    location: json(r.club_location),
  };
}

/** A JSON column: parsed by the driver (pg, PGlite) or, when it arrives as text, here. */
function json<T>(v: unknown): T | null {
  return typeof v === 'string' ? (JSON.parse(v) as T) : ((v ?? null) as T | null);
}

/** The client of a read row (modules/gate/gate-batch.ts `readText`) with its group, schedule rows and recent entrances. */
function clientFromRow(r: ReadRow): FoundClient {
  const num = (v: unknown) => (v == null ? null : Number(v));
  const date = (v: unknown) => (v == null ? null : String(v));
  const group: (DecisionGroup & { name: string; newDayStartHour: number }) | null =
    r.g_id != null
      ? {
          id: Number(r.g_id),
          name: String(r.g_name),
          allowEntrance: Boolean(r.g_allow_entrance),
          entranceState: Number(r.g_entrance_state),
          delayBetweenEntriesMinutes: Number(r.g_delay),
          maxEntriesPerDay: Number(r.g_max_per_day),
          maxEntriesPerDayPerSubscriber: Number(r.g_max_per_subscriber),
          newDayStartHour: Number(r.g_new_day_start_hour),
        }
      : null;
  const lastAt = r.last_at as Date | string | null;
  return {
    client: {
      id: Number(r.id),
      status: Number(r.status),
      clientType: Number(r.client_type),
      subscriptionStart: date(r.subscription_start),
      subscriptionEnd: date(r.subscription_end),
      licenseExpiry: date(r.license_expiry),
      balance: Number(r.balance),
      groupId: num(r.group_id),
      bonusEntries: Number(r.bonus_entries),
      specialPrice: num(r.special_price),
      parent: json<DecisionPayer>(r.parent),
    },
    group,
    newDayStartHour: group?.newDayStartHour ?? 0,
    number: Number(r.number),
    firstName: String(r.first_name),
    lastName: String(r.last_name),
    groupName: group?.name ?? null,
    rows: group ? (json<ScheduleJson[]>(r.rows) ?? []).map((x) => scheduleRow(x, group.id)) : [],
    lastApprovedAt: lastAt ? new Date(lastAt) : null,
    recent: (json<[number, number][]>(r.recent) ?? []).map(([ms, p]) => [Number(ms), Number(p)]),
    parentRecent: (json<number[]>(r.parent_recent) ?? []).map(Number),
  };
}

/**
 * The SQL condition on `clients` that an identification names (seed 001 §3
 * identification types): `card` → card serial; `code` → client code, else
 * client number; `fingerprint` and `face` → the enrolled template with the
 * same keyed HMAC (biometric_templates); `system` → none (null).
 */
export async function identificationMatch(db: Db, clubId: number, ident: Identification): Promise<SQL | null> {
  let match: SQL | undefined;
  if (ident.kind === 'card') match = eq(clients.cardSerial, ident.value);
  else if (ident.kind === 'code') {
    // The client's own code (seed 001 §3 "client code") first, else the client number.
    const byNumber = /^\d{1,9}$/.test(ident.value) ? eq(clients.number, Number(ident.value)) : undefined;
    match = byNumber ? or(eq(clients.clientCode, ident.value), byNumber) : eq(clients.clientCode, ident.value);
  } else if (ident.kind === 'fingerprint' || ident.kind === 'face') {
    // The template's keyed HMAC finds the enrolled template by index, without decrypting (lib/crypto.ts).
    const m = templateMac(await dataKeys(db), clubId, ident.kind, ident.value);
    match = sql`${clients.id} = (select bt.client_id from biometric_templates bt
      where bt.club_id = ${clubId} and bt.kind = ${ident.kind} and bt.template_mac = ${m})`;
  } else return null; // 'system' identifies no client
  return match ?? null;
}

/** Approved entrances of the whole club in the `minutes` before `at` (the load limit, seed 001 §3). */
async function clubLoad(db: Db, clubId: number, at: Date, minutes: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(entranceLogs)
    .where(
      scoped(db, clubId).where(
        entranceLogs,
        eq(entranceLogs.status, EntranceStatus.Approved),
        sql`${entranceLogs.at} > ${new Date(at.getTime() - minutes * 60_000).toISOString()}::timestamptz`,
        lte(entranceLogs.at, at),
      ),
    );
  return Number(r?.n ?? 0);
}

/** The result recorded for a terminal's event id, or null (a resend's answer; the front desk's retries). */
export async function findByEvent(
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
      payerClientId: entranceLogs.payerClientId,
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
      scoped(db, clubId).where(
        entranceLogs,
        eq(entranceLogs.terminalId, terminalId),
        eq(entranceLogs.eventId, eventId),
      ),
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
    payerClientId: r.payerClientId,
    bonusUsed: r.reason === Reason.EntryByBonus ? 1 : 0,
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
