import { and, asc, eq, ne } from 'drizzle-orm';
import {
  ClientStatus,
  safetyMode,
  type AlarmInput,
  type LockdownOverrides,
  type SafetyState,
  type SafetyStep,
  type ServerAlarmAck,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clients, clubSafety, lockdownOverrides } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';
import type { EventBus } from '../../lib/event-bus.js';
import { notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';

/**
 * The club's emergency state at the gates (issue 36; docs/gate-safety.md): open-all
 * (evacuation) and lockdown, who passes a lockdown, and the terminals' alarm inputs.
 *
 * Performance (docs/gate-safety.md "Cost at the gate"): the gate's decision reads the state
 * from memory — one Map lookup per decision, no query. Every instance keeps each club's state
 * it has used; a change is applied to it by the `gate-safety` bus event (LISTEN/NOTIFY across
 * instances, realtime/gate-push.ts calls `applySafetyEvent`), and a state older than
 * SAFETY_REFRESH_MS is read again in the background, so an event lost with a dropped LISTEN
 * connection heals within seconds.
 */

/** How old a club's cached state may get before the next decision reads it again in the background (ms). */
export const SAFETY_REFRESH_MS = 30_000;

/** A club's state as the gate uses it: the state, the clients who pass a lockdown, when read. */
export interface SafetyEntry {
  state: SafetyState;
  overrides: ReadonlySet<number>;
  /** The overrides' cards and client numbers (codes), for the terminals' offline list. */
  overrideCodes: { kind: 'card' | 'code'; value: string }[];
  loadedAt: number;
}

const caches = new WeakMap<Db, Map<number, SafetyEntry>>();
const loading = new WeakMap<Db, Map<number, Promise<SafetyEntry>>>();

function cacheOf(db: Db): Map<number, SafetyEntry> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
}

/** Reads a club's state and its lockdown overrides from the database (two indexed reads). */
async function readSafety(db: Db, clubId: number): Promise<SafetyEntry> {
  const [[row], ov] = await Promise.all([
    db.select().from(clubSafety).where(eq(clubSafety.clubId, clubId)),
    db
      .select({ clientId: lockdownOverrides.clientId, cardSerial: clients.cardSerial, number: clients.number })
      .from(lockdownOverrides)
      .innerJoin(clients, and(eq(clients.clubId, lockdownOverrides.clubId), eq(clients.id, lockdownOverrides.clientId)))
      .where(and(eq(lockdownOverrides.clubId, clubId), eq(clients.status, ClientStatus.Active))),
  ]);
  const overrideCodes: SafetyEntry['overrideCodes'] = [];
  for (const r of ov) {
    if (r.cardSerial) overrideCodes.push({ kind: 'card', value: r.cardSerial });
    overrideCodes.push({ kind: 'code', value: String(r.number) });
  }
  return {
    state: stateOf(row?.openAll ?? null, row?.lockdown ?? null),
    overrides: new Set(ov.map((r) => r.clientId)),
    overrideCodes,
    loadedAt: Date.now(),
  };
}

function stateOf(openAll: SafetyStep | null, lockdown: SafetyStep | null): SafetyState {
  return { mode: safetyMode({ openAll, lockdown }), openAll, lockdown };
}

/** Reads a club's state into the cache; concurrent callers share one read. */
function load(db: Db, clubId: number): Promise<SafetyEntry> {
  let perClub = loading.get(db);
  if (!perClub) loading.set(db, (perClub = new Map()));
  let p = perClub.get(clubId);
  if (!p) {
    p = readSafety(db, clubId).then((e) => {
      cacheOf(db).set(clubId, e);
      return e;
    });
    perClub.set(clubId, p);
    const done = () => perClub.delete(clubId);
    p.then(done, done);
  }
  return p;
}

/**
 * The club's emergency state for a gate decision: from memory when this instance has it (a
 * value, no promise), else read once. A cached state older than SAFETY_REFRESH_MS is answered
 * and read again in the background.
 */
export function safetyNow(db: Db, clubId: number): SafetyEntry | Promise<SafetyEntry> {
  const hit = cacheOf(db).get(clubId);
  if (!hit) return load(db, clubId);
  if (Date.now() - hit.loadedAt > SAFETY_REFRESH_MS) load(db, clubId).catch(() => undefined);
  return hit;
}

/** The club's emergency state (GET /api/GateSafety/State): read from the database, the cache refreshed. */
export async function getSafety(db: Db, clubId: number): Promise<SafetyState> {
  return (await load(db, clubId)).state;
}

/**
 * Applies a `gate-safety` bus event on this instance: a new state is taken as it is; a change of
 * the overrides reads them again. Returns the state now cached (null: the club is not cached here).
 */
export async function applySafetyEvent(
  db: Db,
  e: { clubId: number; state?: SafetyState },
): Promise<SafetyState | null> {
  const cache = cacheOf(db);
  const hit = cache.get(e.clubId);
  if (e.state) {
    cache.set(e.clubId, {
      state: e.state,
      overrides: hit?.overrides ?? new Set(),
      overrideCodes: hit?.overrideCodes ?? [],
      loadedAt: hit ? Date.now() : 0,
    });
    // Without overrides known here yet, read them (the state just set is kept meanwhile).
    if (!hit) await load(db, e.clubId).catch(() => undefined);
    return e.state;
  }
  if (!hit) return null;
  return (await load(db, e.clubId)).state;
}

type StepKind = 'openAll' | 'lockdown';

/** Who started a step: a user at the console, or a terminal's alarm input. */
type By = { actor: Pick<Actor, 'clubId' | 'userId' | 'username' | 'ip'> } | { terminal: { id: number; name: string } };

/**
 * Turns open-all or lockdown on (`on`) or off, with the reason given; writes the club's row and
 * its audit row (action openAll / releaseOpenAll / lockdown / releaseLockdown, entity gateSafety,
 * before and after) in one transaction, then publishes the new state: every instance pushes it to
 * the club's terminals and consoles (realtime/gate-push.ts, realtime/live.ts). Turning on what is
 * on, or off what is off, changes nothing and writes nothing. Answers the state after.
 */
export async function setSafety(
  db: Db,
  bus: EventBus,
  clubId: number,
  kind: StepKind,
  on: boolean,
  reason: string,
  by: By,
): Promise<SafetyState> {
  const state = await db.transaction(async (tx) => {
    await tx.insert(clubSafety).values({ clubId }).onConflictDoNothing();
    const [row] = await tx.select().from(clubSafety).where(eq(clubSafety.clubId, clubId)).for('update');
    const before = stateOf(row!.openAll ?? null, row!.lockdown ?? null);
    if (Boolean(before[kind]) === on) return null;
    const step: SafetyStep | null = on
      ? {
          since: new Date().toISOString(),
          reason,
          source: 'actor' in by ? 'console' : 'terminal',
          by: 'actor' in by ? by.actor.username : by.terminal.name,
        }
      : null;
    const after = stateOf(kind === 'openAll' ? step : before.openAll, kind === 'lockdown' ? step : before.lockdown);
    await tx
      .update(clubSafety)
      .set({ openAll: after.openAll, lockdown: after.lockdown, updatedAt: new Date() })
      .where(eq(clubSafety.clubId, clubId));
    const action = on ? kind : kind === 'openAll' ? 'releaseOpenAll' : 'releaseLockdown';
    const who = 'actor' in by ? by.actor : { clubId, userId: null, ip: `terminal:${by.terminal.id}` };
    await audit(tx, who, { action, entity: 'gateSafety', entityId: clubId, before, after: { ...after, reason } });
    return after;
  });
  if (!state) return getSafety(db, clubId);
  bus.publish('gate-safety', { clubId, state });
  return state;
}

/** What an alarm input starts: the fire panel opens every gate, the panic button locks them. */
const ALARM_STEP: Record<AlarmInput, StepKind> = { 'fire-alarm': 'openAll', panic: 'lockdown' };

/**
 * A terminal's alarm input (docs/terminal-protocol.md "Emergency"): `fire-alarm` starts the club's
 * open-all, `panic` its lockdown, with the reason "<input> at <terminal>", audited as the terminal.
 * An alarm of an unapproved terminal changes nothing (`applied` false); an alarm while the step is
 * already on is audited (action alarm) and changes nothing else.
 */
export async function raiseAlarm(
  db: Db,
  bus: EventBus,
  t: { clubId: number; terminalId: number; name: string; approved: boolean },
  input: AlarmInput,
  eventId: string,
): Promise<ServerAlarmAck> {
  if (!t.approved) {
    const s = await safetyNow(db, t.clubId);
    return { type: 'alarm-ack', eventId, applied: false, mode: s.state.mode };
  }
  const kind = ALARM_STEP[input];
  const current = await getSafety(db, t.clubId);
  if (current[kind]) {
    await audit(
      db,
      { clubId: t.clubId, userId: null, ip: `terminal:${t.terminalId}` },
      {
        action: 'alarm',
        entity: 'gateSafety',
        entityId: t.clubId,
        after: { input, terminalId: t.terminalId, eventId },
      },
    );
    return { type: 'alarm-ack', eventId, applied: true, mode: current.mode };
  }
  const state = await setSafety(db, bus, t.clubId, kind, true, `${input} at ${t.name}`, {
    terminal: { id: t.terminalId, name: t.name },
  });
  return { type: 'alarm-ack', eventId, applied: true, mode: state.mode };
}

// ---------------------------------------------------------------- lockdown overrides

/** GET /api/GateSafety/Overrides: the clients who pass a lockdown, by name. */
export async function listOverrides(db: Db, clubId: number): Promise<LockdownOverrides> {
  const rows = await db
    .select({
      clientId: lockdownOverrides.clientId,
      number: clients.number,
      firstName: clients.firstName,
      lastName: clients.lastName,
      grantedAt: lockdownOverrides.grantedAt,
    })
    .from(lockdownOverrides)
    .innerJoin(clients, and(eq(clients.clubId, lockdownOverrides.clubId), eq(clients.id, lockdownOverrides.clientId)))
    .where(and(eq(lockdownOverrides.clubId, clubId), ne(clients.status, ClientStatus.Deleted)))
    .orderBy(asc(clients.lastName), asc(clients.firstName));
  return {
    items: rows.map((r) => ({
      clientId: r.clientId,
      number: r.number,
      name: `${r.firstName} ${r.lastName}`.trim(),
      grantedAt: r.grantedAt.toISOString(),
    })),
  };
}

/**
 * PUT / DELETE /api/GateSafety/Overrides/{clientId}: grants or withdraws a client's lockdown
 * override (audited: create / delete of lockdownOverride); every instance reads the club's
 * overrides again. Granting twice or withdrawing what is not granted changes nothing.
 * @throws AppError NOT_FOUND for another club's or a deleted client
 */
export async function setOverride(
  db: Db,
  bus: EventBus,
  actor: Actor,
  clientId: number,
  granted: boolean,
): Promise<LockdownOverrides> {
  const c = await scoped(db, actor.clubId).one(clients, clientId, 'client');
  if (c.status === ClientStatus.Deleted) throw notFound('client');
  const changed = await db.transaction(async (tx) => {
    const rows = granted
      ? await tx
          .insert(lockdownOverrides)
          .values({ clubId: actor.clubId, clientId, grantedBy: actor.userId })
          .onConflictDoNothing()
          .returning({ clientId: lockdownOverrides.clientId })
      : await tx
          .delete(lockdownOverrides)
          .where(and(eq(lockdownOverrides.clubId, actor.clubId), eq(lockdownOverrides.clientId, clientId)))
          .returning({ clientId: lockdownOverrides.clientId });
    if (rows.length === 0) return false;
    await audit(tx, actor, {
      action: granted ? 'create' : 'delete',
      entity: 'lockdownOverride',
      entityId: clientId,
      ...(granted ? { after: { clientId } } : { before: { clientId } }),
    });
    return true;
  });
  if (changed) bus.publish('gate-safety', { clubId: actor.clubId });
  return listOverrides(db, actor.clubId);
}

/** Forgets every cached state of a database (tests that rewrite rows behind the service's back). */
export function forgetSafety(db: Db): void {
  caches.delete(db);
}
