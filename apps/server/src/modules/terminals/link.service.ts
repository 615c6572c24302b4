import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { clubs, terminals } from '../../db/schema.js';
import { hashTerminalSecret, terminalKey, verifyTerminalSecret } from './terminal-secret.js';

/**
 * What the terminal link (realtime/terminal-link.ts) reads and writes of a
 * terminal's row: authentication at hello, the connection's instance and
 * last contact, reported devices and door state, approval
 * (docs/terminal-protocol.md "Authentication", "Approval", "Heartbeat").
 */

/** Compared against when the serial is unknown, so both cases take the same time. */
const UNKNOWN_SERIAL_HASH = `hmac$${'A'.repeat(43)}`;

/** The part of a terminal's row the link keeps for its session. */
export interface LinkTerminal {
  id: number;
  clubId: number;
  name: string;
  approved: boolean;
  /** Seconds the gate stays open on an approved entrance. */
  gateOpenSeconds: number;
  /** EntranceState the terminal last reported (seed 000 §3). */
  doorState: number;
}

/**
 * Checks a hello's serial and secret (terminal-secret.ts: keyed HMAC; a legacy
 * scrypt hash is verified once and re-stored as HMAC). An unknown or deleted
 * serial is checked against a dummy hash, so it takes as long as a wrong secret.
 * @returns the terminal, or null when the serial is unknown or the secret wrong
 */
export async function authenticateTerminal(db: Db, serial: string, secret: string): Promise<LinkTerminal | null> {
  // One round trip: the terminal and whether its club is disabled (a storm of hellos is counted in round trips).
  const [row] = await db
    .select({ t: terminals, clubDisabledAt: clubs.disabledAt })
    .from(terminals)
    .innerJoin(clubs, eq(clubs.id, terminals.clubId))
    .where(and(eq(terminals.serial, serial), eq(terminals.deleted, false)))
    .limit(1);
  const t = row?.t;
  const key = await terminalKey(db);
  const ok = await verifyTerminalSecret(key, secret, t?.secretHash ?? UNKNOWN_SERIAL_HASH);
  if (!t || !ok) return null;
  // A terminal of a club the operator disabled is refused like a wrong secret (docs/operator.md).
  if (row.clubDisabledAt) return null;
  if (t.secretHash.startsWith('scrypt$')) {
    await db
      .update(terminals)
      .set({ secretHash: hashTerminalSecret(key, secret) })
      .where(eq(terminals.id, t.id));
  }
  return {
    id: t.id,
    clubId: t.clubId,
    name: t.name,
    approved: t.approved,
    gateOpenSeconds: t.gateOpenSeconds,
    doorState: t.doorState,
  };
}

/**
 * Records that a terminal's link is now held by server instance `instanceId`
 * (remote actions find it there), its last contact `connectedAt`
 * (`last_connection`), and the devices and the software version of its hello
 * when given — one statement.
 */
export async function markTerminalConnected(
  db: Db,
  terminalId: number,
  instanceId: string,
  connectedAt: Date,
  devices: string[] | undefined,
  softwareVersion?: string,
): Promise<void> {
  await db
    .update(terminals)
    .set({
      connectedInstance: instanceId,
      lastConnection: connectedAt,
      ...(devices ? { devices, devicesReportedAt: new Date() } : {}),
      ...(softwareVersion ? { softwareVersion } : {}),
    })
    .where(eq(terminals.id, terminalId));
}

/**
 * Last contacts of live links (`last_connection`), noted by their heartbeats
 * and written together: one statement every `everyMs` (default 5 s) for all
 * the terminals noted meanwhile, instead of one per terminal — with 5,000
 * terminals each writing once a minute, 83 statements a second become one
 * every 5 s (bench/many-terminals.bench.mjs, docs/scaling.md). A row keeps
 * a later contact already written (a link's close writes directly).
 */
export class LastContactWriter {
  private pending = new Map<number, Date>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly everyMs = 5000,
  ) {}

  /** Notes terminal `terminalId`'s contact at `at`; written within `everyMs`. */
  note(terminalId: number, at: Date): void {
    this.pending.set(terminalId, at);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.everyMs);
    this.timer.unref();
  }

  /** Writes what was noted now (one statement; nothing when nothing is pending). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0) return this.flushing;
    // Text array literals of integers and ISO times: one parameter each, whatever the count.
    const ids = `{${[...batch.keys()].join(',')}}`;
    const ats = `{${[...batch.values()].map((d) => `"${d.toISOString()}"`).join(',')}}`;
    this.flushing = this.flushing.then(async () => {
      await this.db.execute(sql`update terminals t set last_connection = v.at
        from unnest(${ids}::int[], ${ats}::timestamptz[]) as v(id, at)
        where t.id = v.id and (t.last_connection is null or t.last_connection < v.at)`);
    });
    return this.flushing;
  }
}

const contactWriters = new WeakMap<Db, LastContactWriter>();

/** The last-contact writer of a database (one per server instance's database). */
export function lastContactWriter(db: Db): LastContactWriter {
  let w = contactWriters.get(db);
  if (!w) contactWriters.set(db, (w = new LastContactWriter(db)));
  return w;
}

/** Writes the terminal's last contact with the server (`last_connection`). */
export async function touchLastConnection(db: Db, terminalId: number, at: Date): Promise<void> {
  await db.update(terminals).set({ lastConnection: at }).where(eq(terminals.id, terminalId));
}

/** Whether a technician has approved the terminal now (false for a missing row). */
export async function isTerminalApproved(db: Db, terminalId: number): Promise<boolean> {
  const [row] = await db.select({ approved: terminals.approved }).from(terminals).where(eq(terminals.id, terminalId));
  return row?.approved === true;
}

/**
 * Stores what a heartbeat reported: the devices present and, when given, a
 * changed door state (EntranceState). Nothing is written for an empty report.
 */
export async function recordTerminalReport(
  db: Db,
  terminalId: number,
  report: { devices?: string[]; doorState?: number },
): Promise<void> {
  const set: Partial<typeof terminals.$inferInsert> = {};
  if (report.devices) Object.assign(set, { devices: report.devices, devicesReportedAt: new Date() });
  if (report.doorState != null) set.doorState = report.doorState;
  if (Object.keys(set).length > 0) await db.update(terminals).set(set).where(eq(terminals.id, terminalId));
}

/** Clears the terminal's instance when it is still `instanceId` (a newer link elsewhere keeps its own). */
export async function releaseTerminalLink(db: Db, terminalId: number, instanceId: string): Promise<void> {
  await db
    .update(terminals)
    .set({ connectedInstance: null })
    .where(and(eq(terminals.id, terminalId), eq(terminals.connectedInstance, instanceId)));
}
