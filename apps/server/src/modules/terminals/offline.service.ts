import { asc, eq, gte, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import {
  OFFLINE_CLOCK_SKEW_SECONDS,
  OFFLINE_UPLOAD_GRACE_HOURS,
  ClientStatus,
  EntrancePaymentType,
  EntranceStatus,
  localToInstant,
  Reason,
  type EntranceRow,
  type OfflineEvent,
  type ServerOfflineAck,
  type ServerValidList,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { balanceLedger, clients, clubs, entranceLogs, groups, terminals } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { clubLocation } from '../club/club.service.js';
import type { EventBus } from '../../lib/event-bus.js';

/**
 * Terminals that lose the server (DESIGN §10; docs/terminal-protocol.md
 * "Offline"): the server gives each terminal a list of who it may admit on
 * its own, and ingests the decisions the terminal took offline exactly once.
 */

/** Minutes a terminal keeps admitting from its cached list after losing the link (TERMINAL_OFFLINE_WINDOW_MINUTES, default 30). */
export function offlineWindowSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const m = Number(env.TERMINAL_OFFLINE_WINDOW_MINUTES ?? 30);
  return Number.isFinite(m) && m >= 0 ? Math.round(m * 60) : 1800;
}

/** How long one club's list is reused before it is read again (also how soon a change reaches the terminals). */
export const VALID_LIST_TTL_MS = 60_000;

const cache = new WeakMap<Db, Map<number, { at: number; list: Promise<ServerValidList> }>>();

/** The day after a YYYY-MM-DD date, as calendar parts. */
function dayAfter(date: string): { year: number; month: number; day: number } {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * The valid list of a club: active clients whose group allows entrance and
 * whose subscription and license are valid today, by card serial and by
 * client code, each valid until the end of the earlier of its subscription
 * end and license expiry (club time zone). Reused for VALID_LIST_TTL_MS.
 */
export function validList(db: Db, clubId: number, now = new Date()): Promise<ServerValidList> {
  let perClub = cache.get(db);
  if (!perClub) cache.set(db, (perClub = new Map()));
  const hit = perClub.get(clubId);
  if (hit && now.getTime() - hit.at < VALID_LIST_TTL_MS) return hit.list;
  const list = readValidList(db, clubId, now);
  perClub.set(clubId, { at: now.getTime(), list });
  list.catch(() => perClub.delete(clubId));
  return list;
}

async function readValidList(db: Db, clubId: number, now: Date): Promise<ServerValidList> {
  const [club] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const tz = clubLocation({ location: club?.location ?? null }).timeZone;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(now);
  const rows = await db
    .select({
      number: clients.number,
      cardSerial: clients.cardSerial,
      firstName: clients.firstName,
      lastName: clients.lastName,
      subscriptionEnd: clients.subscriptionEnd,
      licenseExpiry: clients.licenseExpiry,
    })
    .from(clients)
    .innerJoin(groups, eq(groups.id, clients.groupId))
    .where(
      scoped(db, clubId).where(
        clients,
        eq(clients.status, ClientStatus.Active),
        eq(groups.allowEntrance, true),
        isNotNull(clients.subscriptionEnd),
        gte(clients.subscriptionEnd, today),
        or(sql`${clients.subscriptionStart} is null`, lte(clients.subscriptionStart, today)),
        or(sql`${clients.licenseExpiry} is null`, gte(clients.licenseExpiry, today)),
      ),
    );
  const entries: ServerValidList['entries'] = [];
  for (const r of rows) {
    const end = r.licenseExpiry && r.licenseExpiry < r.subscriptionEnd! ? r.licenseExpiry : r.subscriptionEnd!;
    const until = localToInstant(dayAfter(end), 0, tz).toISOString();
    const name = `${r.firstName} ${r.lastName}`.trim();
    if (r.cardSerial) entries.push({ kind: 'card', value: r.cardSerial, until, name });
    entries.push({ kind: 'code', value: String(r.number), until, name });
  }
  return { type: 'valid-list', generatedAt: now.toISOString(), offlineWindowSeconds: offlineWindowSeconds(), entries };
}

/** Forgets a club's cached list (after a change the terminals must see soon). */
export function invalidateValidList(db: Db, clubId: number): void {
  cache.get(db)?.delete(clubId);
}

/**
 * The gate's own record wins: an offline event whose id
 * the server had already logged — it decided, but the answer never reached
 * the terminal, which then decided on its own — and whose outcome differs from
 * what the terminal did at the door:
 * - the terminal admitted, the server had refused → the log says admitted
 *   (offline, by subscription): the client is inside;
 * - the terminal refused, the server had admitted → the log says refused
 *   (status 3, reason 25) and what the server's decision took from the client
 *   (money, bonus entries) is given back by ledger rows `entrance-reversal`:
 *   the door never opened.
 * Returns whether the log changed. One transaction, the log row locked.
 */
async function terminalRecordWins(
  db: Db,
  link: { clubId: number; terminalId: number },
  terminal: {
    eventId: string;
    status: number;
    reason: number;
    paymentType: number;
    clientId: number | null;
    groupId: number | null;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(entranceLogs)
      .where(
        scoped(tx, link.clubId).where(
          entranceLogs,
          eq(entranceLogs.terminalId, link.terminalId),
          eq(entranceLogs.eventId, terminal.eventId),
        ),
      )
      .for('update');
    if (!old) return false;
    const admitted = terminal.status === EntranceStatus.Approved;
    if (admitted === (old.status === EntranceStatus.Approved)) return false;
    if (admitted) {
      await tx
        .update(entranceLogs)
        .set({
          status: terminal.status,
          reason: terminal.reason,
          paymentType: terminal.paymentType,
          clientId: old.clientId ?? terminal.clientId,
          groupId: old.groupId ?? terminal.groupId,
          offline: true,
        })
        .where(eq(entranceLogs.id, old.id));
      return true;
    }
    const taken = await tx
      .select()
      .from(balanceLedger)
      .where(
        scoped(tx, link.clubId).where(
          balanceLedger,
          eq(balanceLedger.source, 'entrance'),
          eq(balanceLedger.sourceId, old.id),
        ),
      );
    for (const l of taken) {
      await tx.insert(balanceLedger).values({
        clubId: l.clubId,
        clientId: l.clientId,
        kind: l.kind,
        delta: -l.delta,
        source: 'entrance-reversal',
        sourceId: old.id,
      });
      const column = l.kind === 'bonus' ? clients.bonusEntries : l.kind === 'money' ? clients.balance : null;
      if (column) {
        await tx
          .update(clients)
          .set(
            l.kind === 'bonus'
              ? { bonusEntries: sql`${column} - ${l.delta}` }
              : { balance: sql`${column} - ${l.delta}` },
          )
          .where(eq(clients.id, l.clientId));
      }
    }
    await tx
      .update(entranceLogs)
      .set({
        status: EntranceStatus.GeneralError,
        reason: Reason.ClientNotFound,
        paymentType: EntrancePaymentType.None,
        amount: 0,
        offline: true,
      })
      .where(eq(entranceLogs.id, old.id));
    return true;
  });
}

/**
 * Records the decisions a terminal took offline (message `offline-batch`),
 * each exactly once: the entrance_logs row carries the terminal's eventId
 * (unique per terminal) and `offline = true`; an event already recorded (a
 * batch sent twice, or an event the server decided online before the link
 * broke) is reported in `duplicates` and changes nothing. An approved
 * offline entrance counts as an entrance by subscription (reason 0); a
 * refusal (the terminal could not decide) is status 3 with reason 25
 * (client not found in the terminal's list); an emergency's decisions keep
 * their own status and reason (`offlineOutcome`). New rows go to the live feed.
 *
 * Bounds: an event of an unapproved terminal (`link.approved`
 * false) is stored as refused, status 11 "terminal not approved" (reason 26),
 * whatever the terminal decided; an event whose time lies more than
 * OFFLINE_CLOCK_SKEW_SECONDS ahead of the server's clock, or before the
 * offline window plus OFFLINE_UPLOAD_GRACE_HOURS, is not stored and is listed
 * in `rejected` (the terminal drops it).
 */
export async function ingestOfflineBatch(
  db: Db,
  bus: EventBus | null,
  link: { clubId: number; terminalId: number; approved: boolean },
  batch: { batchId: string; events: OfflineEvent[] },
  now = new Date(),
): Promise<ServerOfflineAck> {
  const recorded: string[] = [];
  const duplicates: string[] = [];
  const rejected: NonNullable<ServerOfflineAck['rejected']> = [];
  const latest = now.getTime() + OFFLINE_CLOCK_SKEW_SECONDS * 1000;
  const earliest = now.getTime() - (offlineWindowSeconds() + OFFLINE_UPLOAD_GRACE_HOURS * 3600) * 1000;
  // An id twice in one batch is one event (the first); the ack names it once.
  const seen = new Set<string>();
  const events: OfflineEvent[] = [];
  for (const e of batch.events) {
    if (seen.has(e.eventId)) continue;
    seen.add(e.eventId);
    const at = new Date(e.at).getTime();
    if (at <= latest && at >= earliest) events.push(e);
    else rejected.push({ eventId: e.eventId, code: 'EVENT_TIME_OUT_OF_RANGE' });
  }
  if (events.length > 0) {
    // A batch is a few statements whatever its size (it was two per event: under a slow database a batch
    // of 100 took longer than the terminal waited, and the backlog never drained — issue 33 finding 2):
    // the clients of every card and code at once, every row in one insert, the duplicates' statuses at once.
    const clientOf = await offlineClients(db, link.clubId, events);
    const rows = events.map((e) => {
      const c = clientOf(e);
      const outcome = offlineOutcome(e, c != null, link.approved);
      return {
        client: c,
        values: {
          clubId: link.clubId,
          terminalId: link.terminalId,
          clientId: c?.id ?? null,
          groupId: c?.groupId ?? null,
          at: new Date(e.at),
          ...outcome,
          identificationKind: e.identification.kind,
          eventId: e.eventId,
          offline: true,
        },
      };
    });
    const inserted = await db
      .insert(entranceLogs)
      .values(rows.map((r) => r.values))
      .onConflictDoNothing({ target: [entranceLogs.clubId, entranceLogs.terminalId, entranceLogs.eventId] })
      .returning({ id: entranceLogs.id, eventId: entranceLogs.eventId });
    const newIds = new Map(inserted.map((r) => [r.eventId!, r.id]));
    const already = rows.filter((r) => !newIds.has(r.values.eventId));
    // An event recorded before (a batch sent again, or decided online before the link broke): the gate's own
    // record wins where the two disagree on admitting (read at once here, changed under a lock one by one).
    const before = already.length
      ? await db
          .select({ eventId: entranceLogs.eventId, status: entranceLogs.status })
          .from(entranceLogs)
          .where(
            scoped(db, link.clubId).where(
              entranceLogs,
              eq(entranceLogs.terminalId, link.terminalId),
              inArray(
                entranceLogs.eventId,
                already.map((r) => r.values.eventId),
              ),
            ),
          )
      : [];
    const statusOf = new Map(before.map((b) => [b.eventId!, b.status]));
    const [t] = inserted.length
      ? await db.select({ name: terminals.name }).from(terminals).where(eq(terminals.id, link.terminalId))
      : [];
    for (const { client: c, values } of rows) {
      const id = newIds.get(values.eventId);
      if (id === undefined) {
        const was = statusOf.get(values.eventId);
        if (was !== undefined && (was === EntranceStatus.Approved) !== (values.status === EntranceStatus.Approved)) {
          await terminalRecordWins(db, link, values);
        }
        duplicates.push(values.eventId);
        continue;
      }
      recorded.push(values.eventId);
      const live: EntranceRow = {
        id,
        at: values.at.toISOString(),
        clientId: c?.id ?? null,
        clientNumber: c?.number ?? null,
        clientName: c?.name ?? null,
        groupName: c?.groupName ?? null,
        terminalId: link.terminalId,
        terminalName: t?.name ?? null,
        status: values.status,
        reason: values.reason,
        identificationKind: values.identificationKind,
        amount: 0,
        paymentType: values.paymentType,
      };
      bus?.publish('entrance', { clubId: link.clubId, row: live });
    }
  }
  return {
    type: 'offline-ack',
    batchId: batch.batchId,
    recorded,
    duplicates,
    ...(rejected.length ? { rejected } : {}),
  };
}

/**
 * What the log says of one offline decision: `{ status, reason, paymentType }`.
 * - from a terminal not approved: refused, status 11 reason 26, whatever it decided;
 * - admitted by the club's open-all (status 1, reason 32): approved free, known card or not,
 *   as the gate decides online (docs/gate-safety.md: the door is held open anyway);
 * - admitted in a lockdown as a listed override (status 1, reason 31): approved, payment type
 *   Manager, when the card or code names a client;
 * - refused by a lockdown (status 14): status 14 reason 30;
 * - otherwise the ordinary offline rules: approved by subscription (reason 0) when the terminal
 *   admitted and the card or code names a client, else status 3 reason 25.
 */
export function offlineOutcome(
  e: Pick<OfflineEvent, 'status' | 'reason'>,
  knownClient: boolean,
  terminalApproved: boolean,
): { status: number; reason: number; paymentType: number } {
  const refused = (status: number, reason: number) => ({ status, reason, paymentType: EntrancePaymentType.None });
  if (!terminalApproved) return refused(EntranceStatus.TerminalNotApproved, Reason.TerminalNotApproved);
  if (e.status === EntranceStatus.Lockdown) return refused(EntranceStatus.Lockdown, Reason.Lockdown);
  if (e.status === EntranceStatus.Approved && e.reason === Reason.EntryEmergencyOpen) {
    return {
      status: EntranceStatus.Approved,
      reason: Reason.EntryEmergencyOpen,
      paymentType: EntrancePaymentType.Free,
    };
  }
  if (e.status === EntranceStatus.Approved && knownClient) {
    return e.reason === Reason.EntryLockdownOverride
      ? {
          status: EntranceStatus.Approved,
          reason: Reason.EntryLockdownOverride,
          paymentType: EntrancePaymentType.Manager,
        }
      : {
          status: EntranceStatus.Approved,
          reason: Reason.EntryBySubscription,
          paymentType: EntrancePaymentType.Subscription,
        };
  }
  return refused(EntranceStatus.GeneralError, Reason.ClientNotFound);
}

/**
 * The clients a batch's events name, read in one statement: by card serial (`card`) and by client
 * number (`code` of digits); a card or number two live clients share goes to the lower id.
 * Returns the lookup of one event (undefined: nobody, or a kind the terminal cannot decide).
 */
async function offlineClients(
  db: Db,
  clubId: number,
  events: OfflineEvent[],
): Promise<(e: OfflineEvent) => OfflineClient | undefined> {
  const numberOf = (e: OfflineEvent) =>
    e.identification.kind === 'code' && /^\d{1,9}$/.test(e.identification.value)
      ? Number(e.identification.value)
      : undefined;
  const cards = [...new Set(events.filter((e) => e.identification.kind === 'card').map((e) => e.identification.value))];
  const numbers = [...new Set(events.map(numberOf).filter((n) => n !== undefined))];
  const byCard = new Map<string, OfflineClient>();
  const byNumber = new Map<number, OfflineClient>();
  const matches = [
    cards.length ? inArray(clients.cardSerial, cards) : undefined,
    numbers.length ? inArray(clients.number, numbers) : undefined,
  ].filter((m) => m !== undefined);
  if (matches.length > 0) {
    const found = await db
      .select({
        id: clients.id,
        number: clients.number,
        cardSerial: clients.cardSerial,
        name: sql<string>`trim(${clients.firstName} || ' ' || ${clients.lastName})`,
        groupId: clients.groupId,
        groupName: groups.name,
      })
      .from(clients)
      .leftJoin(groups, eq(groups.id, clients.groupId))
      .where(scoped(db, clubId).live(clients, or(...matches)))
      .orderBy(asc(clients.id));
    for (const c of found) {
      if (c.cardSerial != null && !byCard.has(c.cardSerial)) byCard.set(c.cardSerial, c);
      if (!byNumber.has(c.number)) byNumber.set(c.number, c);
    }
  }
  return (e) => {
    if (e.identification.kind === 'card') return byCard.get(e.identification.value);
    const n = numberOf(e);
    return n === undefined ? undefined : byNumber.get(n);
  };
}

/** The client an offline event names, as the live feed shows it. */
interface OfflineClient {
  id: number;
  number: number;
  name: string;
  groupId: number | null;
  groupName: string | null;
}
