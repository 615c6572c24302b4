import { asc, eq, ne, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  ACTION_REPLY_TIMEOUT_SECONDS,
  HEARTBEAT_INTERVAL_SECONDS,
  TerminalAction,
  can,
  TerminalSettings,
  terminalSettings,
  type ConnectedDevices,
  type Terminal,
  type TerminalActionInput,
  type TerminalActionName,
  type TerminalActionReplyResult,
  type TerminalActionResult,
  type TerminalActionWithReplyInput,
  type TerminalInput,
  type TerminalPatch,
  type ScriptVersion,
  SCREEN_REQUEST_TIMEOUT_MS,
  type TerminalScreenView,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { terminals } from '../../db/schema.js';
import { accessContext } from '../../lib/access.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { pgError } from '../../lib/validation.js';
import type { EventBus } from '../../lib/event-bus.js';
import type { TerminalActions } from '../../lib/terminal-actions.js';
import type { TerminalRegistry } from '../../lib/terminal-registry.js';
import type { TerminalScreens } from '../../lib/terminal-screens.js';
import { latestScriptVersion } from '../operator/maintenance.service.js';
import { hashTerminalSecret, newTerminalSecret, terminalKey } from './terminal-secret.js';

type TerminalRow = typeof terminals.$inferSelect;
type Registry = Pick<TerminalRegistry, 'isConnected'>;

/** A link held by another instance counts as connected while its last_connection is this fresh (heartbeats refresh it every minute). */
const REMOTE_LINK_FRESH_MS = 3 * HEARTBEAT_INTERVAL_SECONDS * 1000 + 60_000;
const SETTING_KEYS = Object.keys(TerminalSettings.shape) as (keyof TerminalSettings)[];

/** Whether a terminal holds a live link to this instance, or (PostgreSQL, several instances) to another one. */
export function isTerminalConnected(row: TerminalRow, registry: Registry, now = Date.now()): boolean {
  if (registry.isConnected(row.id)) return true;
  return (
    row.connectedInstance != null &&
    row.lastConnection != null &&
    now - row.lastConnection.getTime() < REMOTE_LINK_FRESH_MS
  );
}

/**
 * Maps a terminal row to the API shape (seed 001 §3 "Terminal"); the only
 * place that does, and it never carries the secret hash. Settings come from
 * the validated jsonb (defaults applied). `connected` is whether a live link
 * exists to any server instance.
 */
export function presentTerminal(row: TerminalRow, registry: Registry): Terminal {
  return {
    id: row.id,
    serial: row.serial,
    name: row.name,
    isMain: row.isMain,
    approved: row.approved,
    gateOpenSeconds: row.gateOpenSeconds,
    doorState: row.doorState,
    connected: isTerminalConnected(row, registry),
    lastConnection: row.lastConnection ? row.lastConnection.toISOString() : null,
    deleted: row.deleted,
    ...terminalSettings(row.settings),
  };
}

/**
 * The club's terminals, main terminal first, then by name (GET /api/Terminal).
 * `deleted: true` lists the deleted ones instead (for restoring).
 */
export async function listTerminals(
  db: Db,
  clubId: number,
  registry: TerminalRegistry,
  opts: { deleted?: boolean } = {},
): Promise<{ items: Terminal[]; total: number }> {
  const rows = await db
    .select()
    .from(terminals)
    .where(scoped(db, clubId).where(terminals, eq(terminals.deleted, opts.deleted ?? false)))
    .orderBy(asc(terminals.name), asc(terminals.id));
  const items = rows.sort((a, b) => Number(b.isMain) - Number(a.isMain)).map((r) => presentTerminal(r, registry));
  return { items, total: items.length };
}

/** A terminal row of the club; deleted ones only when `withDeleted`. @throws NOT_FOUND */
export async function terminalRow(
  db: Db | Tx,
  clubId: number,
  id: number,
  opts: { forUpdate?: boolean; withDeleted?: boolean } = {},
): Promise<TerminalRow> {
  return scoped(db, clubId).one(terminals, id, 'terminal', { live: !opts.withDeleted, forUpdate: opts.forUpdate });
}

/**
 * One terminal of the club (GET /api/Terminal/{id}), deleted ones included
 * (the details page offers to restore them).
 * @throws AppError NOT_FOUND (404) when the id is not a terminal of this club
 */
export async function getTerminal(db: Db, clubId: number, id: number, registry: TerminalRegistry): Promise<Terminal> {
  return presentTerminal(await terminalRow(db, clubId, id, { withDeleted: true }), registry);
}

function serialTaken(): AppError {
  return new AppError('CONFLICT', 'A terminal with this serial already exists', [
    { path: 'serial', message: 'serialTaken' },
  ]);
}

/** A club has at most one main terminal: marking one clears the flag on the others. */
async function clearOtherMain(tx: Tx, clubId: number, id: number): Promise<void> {
  await tx
    .update(terminals)
    .set({ isMain: false })
    .where(scoped(tx, clubId).where(terminals, ne(terminals.id, id), eq(terminals.isMain, true)));
}

/** Splits an input into its columns and its settings (the jsonb part). */
function splitInput<T extends Partial<TerminalInput> & { approved?: boolean }>(input: T) {
  const columns: Record<string, unknown> = {};
  const settings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if ((SETTING_KEYS as string[]).includes(k)) settings[k] = v;
    else columns[k] = v;
  }
  return { columns, settings };
}

/**
 * Registers a terminal of the caller's club, not yet approved (POST /api/Terminal;
 * DESIGN §8). A random 192-bit secret is issued and only its keyed hash is
 * stored (terminal-secret.ts).
 * @returns the terminal and its secret, which is never shown again
 * @throws AppError CONFLICT (409) when any terminal (of any club, deleted ones included) has the serial
 */
export async function createTerminal(
  db: Db,
  actor: Actor,
  input: TerminalInput,
  registry: TerminalRegistry,
): Promise<Terminal & { secret: string }> {
  const clubId = actor.clubId;
  const secret = newTerminalSecret();
  const secretHash = hashTerminalSecret(await terminalKey(db), secret);
  const { columns, settings } = splitInput(input);
  try {
    return await db.transaction(async (tx) => {
      // A serial is unique across clubs, which no index can hold once terminals are distributed by
      // club_id (docs/scaling.md): every instance checks it under the same transaction lock.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`terminal-serial:${input.serial}`}, 0))`);
      const [taken] = await tx.select({ id: terminals.id }).from(terminals).where(eq(terminals.serial, input.serial));
      if (taken) throw serialTaken();
      const [row] = await tx
        .insert(terminals)
        .values({
          ...(columns as Pick<TerminalInput, 'serial' | 'name'>),
          clubId,
          secretHash,
          settings: TerminalSettings.parse(settings),
        })
        .returning();
      if (row.isMain) await clearOtherMain(tx, clubId, row.id);
      const created = presentTerminal(row, registry);
      await audit(tx, actor, { action: 'create', entity: 'terminal', entityId: row.id, after: created });
      return { ...created, secret };
    });
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'terminals_club_serial') throw serialTaken();
    throw err;
  }
}

/**
 * Changes a terminal's settings (PATCH /api/Terminal/{id}); settings fields
 * are merged into the stored ones; `approved: true` is the technician's
 * approval (audit action 'approve'). A changed door state is pushed to the
 * live feed.
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted terminal of this club
 */
export async function updateTerminal(
  db: Db,
  actor: Actor,
  id: number,
  patch: TerminalPatch,
  registry: TerminalRegistry,
  bus?: EventBus,
): Promise<Terminal> {
  const clubId = actor.clubId;
  const after = await db.transaction(async (tx) => {
    const row = await terminalRow(tx, clubId, id, { forUpdate: true });
    const before = presentTerminal(row, registry);
    const { columns, settings } = splitInput(patch);
    const set: Record<string, unknown> = { ...columns };
    if (Object.keys(settings).length > 0) {
      set.settings = TerminalSettings.parse({ ...terminalSettings(row.settings), ...settings });
    }
    if (Object.keys(set).length > 0) await tx.update(terminals).set(set).where(eq(terminals.id, id));
    if (patch.isMain) await clearOtherMain(tx, clubId, id);
    const next = presentTerminal(await terminalRow(tx, clubId, id), registry);
    const action = patch.approved === true && !row.approved ? 'approve' : 'update';
    await audit(tx, actor, { action, entity: 'terminal', entityId: id, before, after: next });
    return { before, next };
  });
  if (bus && after.before.doorState !== after.next.doorState) {
    bus.publish('door', { clubId, terminalId: id, doorState: after.next.doorState });
  }
  return after.next;
}

/**
 * Soft-deletes a terminal (DELETE /api/Terminal/{id}; seed 001 §4 "Terminals
 * can be deleted and restored"). A deleted terminal cannot connect: its live
 * link, on whichever instance, is closed at once, and its hello answers
 * AUTH_FAILED. Deleting it again is a 404.
 */
export async function deleteTerminal(db: Db, actor: Actor, id: number, bus: EventBus): Promise<{ ok: true }> {
  const clubId = actor.clubId;
  await db.transaction(async (tx) => {
    const row = await terminalRow(tx, clubId, id, { forUpdate: true });
    await tx.update(terminals).set({ deleted: true, isMain: false }).where(eq(terminals.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'terminal', entityId: id, before: { name: row.name } });
  });
  bus.publish('terminal-kick', { terminalId: id });
  return { ok: true };
}

/**
 * Restores a deleted terminal (PATCH /api/Terminal/Restore/{id}); it may
 * connect again with its old secret.
 * @throws AppError NOT_FOUND (404) when the id is not a deleted terminal of this club
 */
export async function restoreTerminal(db: Db, actor: Actor, id: number, registry: TerminalRegistry): Promise<Terminal> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const row = await terminalRow(tx, clubId, id, { forUpdate: true, withDeleted: true });
    if (!row.deleted) throw notFound('terminal');
    await tx.update(terminals).set({ deleted: false }).where(eq(terminals.id, id));
    await audit(tx, actor, { action: 'restore', entity: 'terminal', entityId: id, after: { name: row.name } });
    return presentTerminal({ ...row, deleted: false }, registry);
  });
}

/**
 * The devices a terminal reported in its last hello or heartbeat
 * (GET /api/Terminal/GetConnectedDevices/{id}).
 */
export async function connectedDevices(
  db: Db,
  clubId: number,
  id: number,
  registry: TerminalRegistry,
): Promise<ConnectedDevices> {
  const row = await terminalRow(db, clubId, id);
  const connected = isTerminalConnected(row, registry);
  return {
    terminalId: row.id,
    connected,
    devices: connected && Array.isArray(row.devices) ? (row.devices as string[]) : [],
    reportedAt: row.devicesReportedAt ? row.devicesReportedAt.toISOString() : null,
  };
}

/**
 * Remote view (GET /api/Terminal/GetScreen/{id}; docs/terminal-protocol.md "Remote view"):
 * the latest screen the terminal reported, asked of the instance holding its link when this
 * one has none (SCREEN_REQUEST_TIMEOUT_MS). `screen` is null when none is known.
 * @throws AppError NOT_FOUND (404) when the id is not a terminal of this club
 */
export async function terminalScreen(
  db: Db,
  clubId: number,
  id: number,
  link: { registry: TerminalRegistry; screens: TerminalScreens },
): Promise<TerminalScreenView> {
  const row = await terminalRow(db, clubId, id);
  const connected = isTerminalConnected(row, link.registry);
  const rec = await link.screens.current(row.id, connected, SCREEN_REQUEST_TIMEOUT_MS);
  return {
    terminalId: row.id,
    connected,
    screen: rec?.screen ?? null,
    at: rec?.at ?? null,
    receivedAt: rec?.receivedAt ?? null,
  };
}

/**
 * Technician-only actions (seed 000 §6, seed 001 §6: check for updates,
 * reload a terminal display): users of role TECHNICIAN, club admins and the
 * service operator. Everyone else with roleEditTerminals gets 403.
 */
async function assertMayAct(db: Db, actor: Actor, actionName: string): Promise<void> {
  if (!can(await accessContext(db, actor, false), { terminalAction: actionName })) {
    throw new AppError('NOT_AUTHORIZED', 'Only a technician may send this action');
  }
}

/**
 * Validates an action (TerminalAction: setDoorState needs `data.doorState`) after the
 * technician check and the club's terminal; setDoorState also stores the terminal's door state.
 * @returns the terminal's row and the typed action
 * @throws NOT_AUTHORIZED, NOT_FOUND, VALIDATION_ERROR (data.doorState) for a setDoorState without a door state
 */
async function prepareAction(
  db: Db,
  actor: Actor,
  input: { targetId: number; actionName: TerminalActionName; data?: unknown },
  registry: TerminalRegistry,
  bus: EventBus,
): Promise<{ row: TerminalRow; action: TerminalAction }> {
  await assertMayAct(db, actor, input.actionName);
  const row = await terminalRow(db, actor.clubId, input.targetId);
  const data = input.actionName === 'checkForUpdates' && input.data == null ? await updateOffer(db) : input.data;
  const parsed = TerminalAction.safeParse({ actionName: input.actionName, data });
  if (!parsed.success) {
    // Only setDoorState's data has a shape to fail.
    throw new AppError('VALIDATION_ERROR', 'data.doorState is required', [
      { path: 'data.doorState', message: 'required' },
    ]);
  }
  const action = parsed.data;
  if (action.actionName === 'setDoorState') {
    const patch = { doorState: action.data.doorState as TerminalPatch['doorState'] };
    await updateTerminal(db, actor, input.targetId, patch, registry, bus);
  }
  return { row, action };
}

/**
 * What "check for updates" offers a terminal when the console sends no data
 * (docs/operator.md): the newest version the operator published with
 * GET /Club/GetScriptVersionList's fields, or `{latest: null}` when none is.
 */
async function updateOffer(db: Db): Promise<{ latest: ScriptVersion | null }> {
  return { latest: await latestScriptVersion(db) };
}

/**
 * Sends an action to a terminal without waiting (POST /api/Terminal/TerminalAction,
 * /TerminalPing; DESIGN §8): open gate, reboot, reload display, check for
 * updates, set door state, ping. Delivered through whichever instance holds
 * the terminal's link. Audited.
 * @throws NOT_FOUND for another club's terminal, NOT_AUTHORIZED for a
 *   technician action by a non-technician, NO_TERMINAL_CONNECTION (503) when
 *   the terminal has no live link
 */
export async function sendTerminalAction(
  db: Db,
  actor: Actor,
  input: TerminalActionInput,
  deps: { registry: TerminalRegistry; bus: EventBus; actions: TerminalActions },
): Promise<TerminalActionResult> {
  if (input.terminalId != null) await terminalRow(db, actor.clubId, input.terminalId);
  const { row, action } = await prepareAction(db, actor, input, deps.registry, deps.bus);
  if (!isTerminalConnected(row, deps.registry)) throw new AppError('NO_TERMINAL_CONNECTION', 'No terminal connection');
  const requestId = deps.actions.send(row.id, action);
  await audit(db, actor, {
    action: 'terminal-action',
    entity: 'terminal',
    entityId: row.id,
    after: { actionName: input.actionName, requestId },
  });
  return { sent: true, requestId };
}

/**
 * Sends an action and waits for the terminal's reply
 * (POST /api/Terminal/TerminalActionWithReply), at most
 * ACTION_REPLY_TIMEOUT_SECONDS (or `timeoutMs`).
 * @throws NO_TERMINAL_CONNECTION (503, "No terminal connection", seed 001 §8)
 *   when no reply comes in time, NOT_FOUND, NOT_AUTHORIZED as sendTerminalAction
 */
export async function sendTerminalActionWithReply(
  db: Db,
  actor: Actor,
  input: TerminalActionWithReplyInput,
  deps: { registry: TerminalRegistry; bus: EventBus; actions: TerminalActions; timeoutMs?: number },
): Promise<TerminalActionReplyResult> {
  const { row, action } = await prepareAction(db, actor, input, deps.registry, deps.bus);
  const reply = await deps.actions.sendAndWait(row.id, action, deps.timeoutMs ?? ACTION_REPLY_TIMEOUT_SECONDS * 1000);
  await audit(db, actor, {
    action: 'terminal-action',
    entity: 'terminal',
    entityId: row.id,
    after: { actionName: input.actionName, replied: reply != null, ok: reply?.ok ?? null },
  });
  if (!reply) throw new AppError('NO_TERMINAL_CONNECTION', 'No terminal connection');
  return {
    requestId: reply.requestId,
    ok: reply.ok,
    ...(reply.data !== undefined ? { data: reply.data } : {}),
    ...(reply.error ? { error: reply.error } : {}),
    ms: reply.ms,
  };
}
