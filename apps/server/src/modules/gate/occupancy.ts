import { and, eq, isNull, sql } from 'drizzle-orm';
import { ANTI_PASSBACK } from '@venue/domain';
import type { Db } from '../../db/index.js';
import type { AreaState } from './entrance.js';
import { queryRows } from '../../db/query.js';
import { areaPresence, gateAreas, gateAreaTerminals } from '../../db/schema.js';

/**
 * Live occupancy at the gate (issue 36; docs/gate-safety.md "Occupancy"): who is inside each area
 * of a club now, kept in memory so that the gate's capacity and anti-passback checks cost a Map
 * lookup per decision, no query (docs/gate-safety.md "Cost at the gate").
 *
 * Each instance keeps the clubs it decides for: the areas and their terminals (read again every
 * CONFIG_REFRESH_MS, or at once after a change: `forgetOccupancy`), and for a club with areas the
 * open stays (read again every PRESENCE_REFRESH_MS, in the background). Its own entrances and exits
 * update the memory at once; another instance's are seen within PRESENCE_REFRESH_MS. The same read
 * closes the stays past their area's maximum stay (left_how auto, flagged).
 */

/** How often a club without areas is read again (areas added meanwhile), ms. */
export const CONFIG_REFRESH_MS = 30_000;
/** How often a club with areas reads its open stays again (another instance's entrances and exits), ms. */
export const PRESENCE_REFRESH_MS = 2_000;

/** An area as the gate uses it. */
export interface AreaConfig {
  id: number;
  name: string;
  capacity: number;
  maxStayMinutes: number;
  antiPassback: number;
  antiPassbackResetMinutes: number;
}

/** A club's occupancy in memory. */
export interface OccupancyEntry {
  areas: Map<number, AreaConfig>;
  /** terminal id → area id. */
  terminalArea: Map<number, number>;
  /** area id → (client id → entered at, epoch ms). */
  inside: Map<number, Map<number, number>>;
  /** client id → the area the client is in now. */
  clientArea: Map<number, number>;
  loadedAt: number;
}

const caches = new WeakMap<Db, Map<number, OccupancyEntry>>();
const loading = new WeakMap<Db, Map<number, Promise<OccupancyEntry>>>();

function cacheOf(db: Db): Map<number, OccupancyEntry> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
}

/**
 * Closes the club's stays past their area's maximum stay: left at entered + the maximum, how
 * `auto`, flagged (docs/gate-safety.md "Maximum stay"). Returns how many were closed.
 */
export async function closeOverstays(db: Db, clubId: number, now = new Date()): Promise<number> {
  const rows = await queryRows(
    db,
    sql`update area_presence p
      set left_at = p.entered_at + make_interval(mins => a.max_stay_minutes), left_how = 'auto', flagged = true
      from gate_areas a
      where p.club_id = ${clubId} and p.left_at is null and a.club_id = p.club_id and a.id = p.area_id
        and a.max_stay_minutes > 0
        and p.entered_at + make_interval(mins => a.max_stay_minutes) <= ${now.toISOString()}::timestamptz
      returning p.id`,
  );
  return rows.length;
}

async function readOccupancy(db: Db, clubId: number): Promise<OccupancyEntry> {
  const [areas, links] = await Promise.all([
    db
      .select()
      .from(gateAreas)
      .where(and(eq(gateAreas.clubId, clubId), eq(gateAreas.deleted, false))),
    db.select().from(gateAreaTerminals).where(eq(gateAreaTerminals.clubId, clubId)),
  ]);
  const entry: OccupancyEntry = {
    areas: new Map(areas.map((a) => [a.id, a])),
    terminalArea: new Map(
      links.filter((l) => areas.some((a) => a.id === l.areaId)).map((l) => [l.terminalId, l.areaId]),
    ),
    inside: new Map(areas.map((a) => [a.id, new Map()])),
    clientArea: new Map(),
    loadedAt: Date.now(),
  };
  if (areas.length === 0) return entry;
  await closeOverstays(db, clubId);
  const open = await db
    .select({ areaId: areaPresence.areaId, clientId: areaPresence.clientId, enteredAt: areaPresence.enteredAt })
    .from(areaPresence)
    .where(and(eq(areaPresence.clubId, clubId), isNull(areaPresence.leftAt)));
  for (const p of open) {
    const m = entry.inside.get(p.areaId);
    if (!m) continue;
    m.set(p.clientId, p.enteredAt.getTime());
    entry.clientArea.set(p.clientId, p.areaId);
  }
  return entry;
}

function load(db: Db, clubId: number): Promise<OccupancyEntry> {
  let perClub = loading.get(db);
  if (!perClub) loading.set(db, (perClub = new Map()));
  let p = perClub.get(clubId);
  if (!p) {
    p = readOccupancy(db, clubId).then((e) => {
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
 * A club's occupancy for a gate decision: from memory (a value, no promise) when this instance has
 * it, else read once; an entry older than its refresh interval is answered and read again in the
 * background.
 */
export function occupancyNow(db: Db, clubId: number): OccupancyEntry | Promise<OccupancyEntry> {
  const hit = cacheOf(db).get(clubId);
  if (!hit) return load(db, clubId);
  const every = hit.areas.size > 0 ? PRESENCE_REFRESH_MS : CONFIG_REFRESH_MS;
  if (Date.now() - hit.loadedAt > every) load(db, clubId).catch(() => undefined);
  return hit;
}

/** Reads a club's occupancy now (after a change of its areas, and for the console's views). */
export function reloadOccupancy(db: Db, clubId: number): Promise<OccupancyEntry> {
  return load(db, clubId);
}

/** The area check's input of one presentation (see entrance.ts `AreaState`); null when the terminal is in no area. */
export function areaState(e: OccupancyEntry, terminalId: number, clientId: number | null, at: Date): AreaState | null {
  const id = e.terminalArea.get(terminalId);
  if (id == null) return null;
  const area = e.areas.get(id)!;
  const here = e.inside.get(id)!;
  // A stay past the area's maximum is over (closed in the database by the next read): forgotten
  // here when it matters — the client's own, and the others' only when the area looks full.
  const maxMs = area.maxStayMinutes * 60_000;
  const now = Date.now();
  const forget = (cid: number) => {
    here.delete(cid);
    if (e.clientArea.get(cid) === id) e.clientArea.delete(cid);
  };
  let enteredAt = clientId != null ? here.get(clientId) : undefined;
  if (maxMs > 0 && enteredAt != null && now - enteredAt >= maxMs) {
    forget(clientId!);
    enteredAt = undefined;
  }
  if (maxMs > 0 && area.capacity > 0 && here.size >= area.capacity) {
    for (const [cid, t] of here) if (now - t >= maxMs) forget(cid);
  }
  const insideHere = enteredAt != null;
  const reset = area.antiPassbackResetMinutes * 60_000;
  return {
    id,
    capacity: area.capacity,
    inside: here.size,
    antiPassback: area.antiPassback,
    insideHere,
    passbackActive:
      enteredAt != null && area.antiPassback !== ANTI_PASSBACK.Off && (reset === 0 || at.getTime() - enteredAt < reset),
  };
}

/**
 * Records an approved entrance into an area: the client's open stay elsewhere (or here) ends as
 * `moved`, a new stay opens (one statement), and the memory follows at once.
 */
export async function recordAreaEntry(
  db: Db,
  v: { clubId: number; areaId: number; clientId: number; terminalId: number; at: Date; passback: boolean },
): Promise<void> {
  await queryRows(
    db,
    sql`with moved as (
        update area_presence set left_at = ${v.at.toISOString()}::timestamptz, left_how = 'moved'
        where club_id = ${v.clubId} and client_id = ${v.clientId} and left_at is null returning id)
      insert into area_presence (club_id, area_id, client_id, terminal_id, entered_at, passback)
      select ${v.clubId}, ${v.areaId}, ${v.clientId}, ${v.terminalId}, ${v.at.toISOString()}::timestamptz, ${v.passback}
      from (select count(*) from moved) m`,
  );
  const e = cacheOf(db).get(v.clubId);
  if (!e) return;
  const was = e.clientArea.get(v.clientId);
  if (was != null) e.inside.get(was)?.delete(v.clientId);
  e.inside.get(v.areaId)?.set(v.clientId, v.at.getTime());
  e.clientArea.set(v.clientId, v.areaId);
}

/**
 * Ends a client's open stay (an exit reader or quick exit: `exit`; an attendant: `checkout`).
 * Returns the area left, or null when the client was inside none.
 */
export async function recordAreaExit(
  db: Db,
  clubId: number,
  clientId: number,
  at: Date,
  how: 'exit' | 'checkout',
): Promise<number | null> {
  const rows = await db
    .update(areaPresence)
    .set({ leftAt: at, leftHow: how })
    .where(and(eq(areaPresence.clubId, clubId), eq(areaPresence.clientId, clientId), isNull(areaPresence.leftAt)))
    .returning({ areaId: areaPresence.areaId });
  const e = cacheOf(db).get(clubId);
  if (e) {
    const was = e.clientArea.get(clientId);
    if (was != null) e.inside.get(was)?.delete(clientId);
    e.clientArea.delete(clientId);
  }
  return rows[0]?.areaId ?? null;
}
