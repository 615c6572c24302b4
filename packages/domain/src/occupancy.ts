import { z } from 'zod';
import { int32, isoDate, text } from './parts.js';

/**
 * Live occupancy (issue 36; docs/gate-safety.md "Occupancy"): the club's areas (terminals grouped:
 * entrance hall, pool, immersion rooms), who is inside each now, counted from approved entrances
 * at the area's terminals and from exits (exit readers, quick exits, an attendant's check-out, the
 * area's maximum stay), the gate refusing at an area's capacity, anti-passback, and the
 * card-sharing report. Times are ISO instants.
 */

/** Anti-passback of an area: off; soft (admit and flag); hard (refuse with status 16). */
export const ANTI_PASSBACK = { Off: 0, Soft: 1, Hard: 2 } as const;

/** How a stay ended: an exit reader or quick exit, an attendant, an entrance elsewhere, the maximum stay. */
export const LEAVE_KINDS = ['exit', 'checkout', 'moved', 'auto'] as const;

const areaFields = {
  name: text(100).trim().min(1, { message: 'required' }),
  /** People inside at most; 0 = no limit. */
  capacity: z.number().int().min(0).max(100_000).default(0),
  /** Minutes after which a stay closes itself, flagged; 0 = never. */
  maxStayMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(0),
  /** ANTI_PASSBACK: 0 off, 1 soft, 2 hard. */
  antiPassback: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  /** Minutes after an entrance when anti-passback forgets it (the timed reset); 0 = until an exit. */
  antiPassbackResetMinutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(0),
  /** The terminals leading into the area (a terminal is in one area at most: given here, it leaves any other). */
  terminalIds: z.array(int32).max(500).default([]),
};

/** POST /api/Occupancy/Areas. */
export const AreaInput = z.strictObject(areaFields);
export type AreaInput = z.infer<typeof AreaInput>;
/** PATCH /api/Occupancy/Areas/{id}: any subset. */
export const AreaPatch = z
  .strictObject({
    name: areaFields.name,
    capacity: areaFields.capacity.unwrap(),
    maxStayMinutes: areaFields.maxStayMinutes.unwrap(),
    antiPassback: areaFields.antiPassback.unwrap(),
    antiPassbackResetMinutes: areaFields.antiPassbackResetMinutes.unwrap(),
    terminalIds: areaFields.terminalIds.unwrap(),
  })
  .partial();
export type AreaPatch = z.infer<typeof AreaPatch>;

export const AreaRecord = z.object({
  id: int32,
  name: z.string(),
  capacity: int32,
  maxStayMinutes: int32,
  antiPassback: int32,
  antiPassbackResetMinutes: int32,
  terminalIds: z.array(int32),
});
export type AreaRecord = z.infer<typeof AreaRecord>;
export const AreaList = z.object({ items: z.array(AreaRecord) });
export type AreaList = z.infer<typeof AreaList>;

/** GET /api/Occupancy/Now: inside now per area and in all, and the day's curve (inside at each hour). */
export const OccupancyNow = z.object({
  total: int32,
  areas: z.array(z.object({ id: int32, name: z.string(), capacity: int32, inside: int32, full: z.boolean() })),
  /** The club's local day: people inside at the end of each hour so far (the last: now). */
  curve: z.array(z.object({ hour: int32, inside: int32 })),
  /** Stays closed by the maximum stay today (flagged). */
  autoClosedToday: int32,
});
export type OccupancyNow = z.infer<typeof OccupancyNow>;

/** One person inside now. Names and numbers only for users who may see the client list. */
export const InsideEntry = z.object({
  areaId: int32,
  areaName: z.string(),
  enteredAt: z.string(),
  clientId: int32.nullable(),
  name: z.string().nullable(),
  number: int32.nullable(),
});
export const InsideList = z.object({ items: z.array(InsideEntry), names: z.boolean() });
export type InsideList = z.infer<typeof InsideList>;

/** The card-sharing report's query: a period (club days) and the suspicion thresholds. */
export const CardSharingQuery = z.object({
  from: isoDate,
  to: isoDate,
  /** Two approved entrances of one card at two different terminals less than this many seconds apart. */
  seconds: z.coerce.number().int().min(1).max(3600).default(60),
  /** More approved entrances than exits by at least this many in the period. */
  surplus: z.coerce.number().int().min(1).max(1000).default(3),
});
export type CardSharingQuery = z.infer<typeof CardSharingQuery>;

export const CardSharingRow = z.object({
  clientId: int32,
  name: z.string(),
  number: int32,
  /** `twoPlaces`: at two terminals too close in time; `surplus`: far more entrances than exits. */
  kind: z.enum(['twoPlaces', 'surplus']),
  /** twoPlaces: how many such pairs; surplus: entrances minus exits. */
  count: int32,
  /** Soft anti-passback admissions in the period. */
  passbacks: int32,
  last: z.string(),
});
export const CardSharingReport = z.object({ items: z.array(CardSharingRow) });
export type CardSharingReport = z.infer<typeof CardSharingReport>;
