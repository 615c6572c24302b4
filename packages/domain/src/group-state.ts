import { z } from 'zod';
import type { ClubLocation } from './local-date.js';
import { EntranceState } from './enums.js';
import { businessMoment, resolveScheduleRow, type ScheduleRowTimes } from './schedule.js';
import { GENERAL_SCHEDULE_RANK_OFFSET } from './weekPreview.js';

/**
 * Whether a group is open at an instant (issue 19: the client form marks a
 * group that is closed right now). The gate's own resolution: the schedule
 * row in force at the group's business moment (resolveScheduleRow; the lower
 * row wins, linked general rows rank below the group's own) gives the
 * entrance state, else the group's own state; a group that does not allow
 * entrance is closed whatever its schedule (modules/gate/entrance.ts decideEntrance
 * rule 7). Rows tied to one terminal are left out: the answer is for the
 * club's terminals in general, as the week preview without a terminal.
 */
export function groupStateAt(
  group: { allowEntrance: boolean; entranceState: number; newDayStartHour: number },
  rows: readonly (ScheduleRowTimes & { general?: boolean })[],
  instant: Date,
  loc: ClubLocation,
): { entranceState: number; open: boolean; rowId: number | null } {
  const ranked = rows
    .filter((r) => r.terminalId == null)
    .map((r) => (r.general ? { ...r, sortOrder: r.sortOrder - GENERAL_SCHEDULE_RANK_OFFSET } : r));
  const row = resolveScheduleRow(ranked, -1, businessMoment(instant, loc.timeZone, group.newDayStartHour), loc);
  const entranceState = row?.entranceState ?? group.entranceState;
  return {
    entranceState,
    open: group.allowEntrance && entranceState !== EntranceState.Closed,
    rowId: row?.id ?? null,
  };
}

/** GET /api/Group/StateNow: each live group's entrance state now (its schedule at the club's location). */
export const GroupsStateNow = z.object({
  /** The instant the states are for, ISO. */
  at: z.string(),
  items: z.array(z.object({ groupId: z.number(), entranceState: z.number(), open: z.boolean() })),
});
export type GroupsStateNow = z.infer<typeof GroupsStateNow>;
