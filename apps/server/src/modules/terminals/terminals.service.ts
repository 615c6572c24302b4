import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Terminal, TerminalInput, TerminalPatch } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { terminals } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { hashPassword, randomSecret } from '../../lib/password.js';
import { pgError } from '../../lib/validation.js';
import type { TerminalRegistry } from '../../realtime/terminal-registry.js';

type TerminalRow = typeof terminals.$inferSelect;

/**
 * Maps a terminal row to the API shape (seed 001 §3 "Terminal"); the only
 * place that does, and it never carries the secret hash. `connected` is
 * whether the terminal holds a live link to this server now.
 */
export function presentTerminal(row: TerminalRow, registry: Pick<TerminalRegistry, 'isConnected'>): Terminal {
  return {
    id: row.id,
    serial: row.serial,
    name: row.name,
    isMain: row.isMain,
    approved: row.approved,
    gateOpenSeconds: row.gateOpenSeconds,
    doorState: row.doorState,
    connected: registry.isConnected(row.id),
    lastConnection: row.lastConnection ? row.lastConnection.toISOString() : null,
  };
}

/** The club's terminals that are not deleted, main terminal first, then by name (GET /api/Terminal). */
export async function listTerminals(
  db: Db,
  clubId: number,
  registry: TerminalRegistry,
): Promise<{ items: Terminal[]; total: number }> {
  const rows = await db
    .select()
    .from(terminals)
    .where(and(eq(terminals.clubId, clubId), eq(terminals.deleted, false)))
    .orderBy(asc(terminals.name), asc(terminals.id));
  const items = rows.sort((a, b) => Number(b.isMain) - Number(a.isMain)).map((r) => presentTerminal(r, registry));
  return { items, total: items.length };
}

async function terminalRow(db: Db | Tx, clubId: number, id: number, forUpdate = false): Promise<TerminalRow> {
  const q = db
    .select()
    .from(terminals)
    .where(and(eq(terminals.clubId, clubId), eq(terminals.id, id), eq(terminals.deleted, false)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('terminal');
  return row;
}

/**
 * One terminal of the club (GET /api/Terminal/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted terminal of this club
 */
export async function getTerminal(db: Db, clubId: number, id: number, registry: TerminalRegistry): Promise<Terminal> {
  return presentTerminal(await terminalRow(db, clubId, id), registry);
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
    .where(and(eq(terminals.clubId, clubId), ne(terminals.id, id), eq(terminals.isMain, true)));
}

/**
 * Registers a terminal of the caller's club, not yet approved (POST /api/Terminal;
 * DESIGN §8). A random secret is issued and only its scrypt hash is stored.
 * @returns the terminal and its secret, which is never shown again
 * @throws AppError CONFLICT (409) when any terminal (of any club, deleted ones included) has the serial
 */
export async function createTerminal(
  db: Db,
  req: FastifyRequest,
  input: TerminalInput,
  registry: TerminalRegistry,
): Promise<Terminal & { secret: string }> {
  const clubId = req.auth.clubId;
  const secret = randomSecret();
  const secretHash = await hashPassword(secret);
  try {
    return await db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: terminals.id }).from(terminals).where(eq(terminals.serial, input.serial));
      if (taken) throw serialTaken();
      const [row] = await tx
        .insert(terminals)
        .values({ ...input, clubId, secretHash })
        .returning();
      if (row.isMain) await clearOtherMain(tx, clubId, row.id);
      const created = presentTerminal(row, registry);
      await audit(tx, req, { action: 'create', entity: 'terminal', entityId: row.id, after: created });
      return { ...created, secret };
    });
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'terminals_serial') throw serialTaken();
    throw err;
  }
}

/**
 * Changes a terminal's settings (PATCH /api/Terminal/{id}); `approved: true`
 * is the technician's approval (audit action 'approve').
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted terminal of this club
 */
export async function updateTerminal(
  db: Db,
  req: FastifyRequest,
  id: number,
  patch: TerminalPatch,
  registry: TerminalRegistry,
): Promise<Terminal> {
  const clubId = req.auth.clubId;
  return db.transaction(async (tx) => {
    const row = await terminalRow(tx, clubId, id, true);
    const before = presentTerminal(row, registry);
    if (Object.keys(patch).length > 0) await tx.update(terminals).set(patch).where(eq(terminals.id, id));
    if (patch.isMain) await clearOtherMain(tx, clubId, id);
    const after = presentTerminal(await terminalRow(tx, clubId, id), registry);
    const action = patch.approved === true && !row.approved ? 'approve' : 'update';
    await audit(tx, req, { action, entity: 'terminal', entityId: id, before, after });
    return after;
  });
}
