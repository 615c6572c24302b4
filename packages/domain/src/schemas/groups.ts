import { z } from 'zod';
import { count, id, idParam, int32, isoDate, money, text } from '../parts.js';
import { ENTRANCE_STATES, HALACHIC_TIMES } from '../enums.js';
import { WithoutDefault, withoutDefaults } from './helpers.js';

/**
 * Client groups and schedules (seed 001 §3 "Client group", "Schedule
 * entry"): schedule rows owned by a group, general schedule rows and their
 * links to groups, and the week preview. Times of day are minutes after
 * midnight; dates YYYY-MM-DD in the club's time zone.
 */

/** A time of day: minutes after midnight, 0–1440. */
const minutesOfDay = z.number().int().min(0).max(1440);

/** One schedule row (seed 001 §3 "Schedule entry"). Times in minutes after midnight. */
export const ScheduleRowInput = z
  .strictObject({
    id: idParam.optional(),
    days: z.array(z.number().int().min(0).max(7)).min(1, { message: 'chooseDays' }).max(8, { message: 'tooLong' }),
    fromTime: minutesOfDay.nullable().default(null),
    toTime: minutesOfDay.nullable().default(null),
    fromHalachic: z
      .union(HALACHIC_TIMES.map((h) => z.literal(h)))
      .nullable()
      .default(null),
    fromOffset: z.number().int().min(-720).max(720).default(0),
    toHalachic: z
      .union(HALACHIC_TIMES.map((h) => z.literal(h)))
      .nullable()
      .default(null),
    toOffset: z.number().int().min(-720).max(720).default(0),
    fromDate: isoDate.nullable().default(null),
    toDate: isoDate.nullable().default(null),
    price: money.min(0).default(0),
    pricePerBeat: money.min(0).default(0),
    displayName: text(60).default(''),
    maxPurchaseQty: count.default(0),
    description: text(200).default(''),
    minutes: count.default(0),
    priority: int32.default(0),
    entranceState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))),
    terminalId: idParam.nullable().default(null),
  })
  .refine((r) => r.fromHalachic != null || r.fromTime != null, { message: 'fromRequired', path: ['fromTime'] })
  .refine((r) => r.toHalachic != null || r.toTime != null, { message: 'toRequired', path: ['toTime'] })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'dateRangeOrder',
    path: ['toDate'],
  });
export type ScheduleRowInput = z.infer<typeof ScheduleRowInput>;
export type ScheduleRow = ScheduleRowInput & { id: number; sortOrder: number };

/** A stored schedule row as the API presents it (GET /api/Schedule/GetByGroupId/{id}, Group.schedule). */
export const ScheduleRow = z.object({
  id: z.number(),
  sortOrder: z.number(),
  days: z.array(z.number()),
  fromTime: z.number().nullable(),
  toTime: z.number().nullable(),
  fromHalachic: z.number().nullable(),
  fromOffset: z.number(),
  toHalachic: z.number().nullable(),
  toOffset: z.number(),
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  price: z.number(),
  pricePerBeat: z.number(),
  displayName: z.string(),
  maxPurchaseQty: z.number(),
  description: z.string(),
  minutes: z.number(),
  priority: z.number(),
  entranceState: z.number(),
  terminalId: z.number().nullable(),
});

/** A client group (seed 001 §3 "Client group"). Rows are saved with the group, in list order. */
export const GroupInput = z.strictObject({
  name: text(60).trim().min(1, { message: 'required' }),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'invalidColor' })
    .default('#1677ff'),
  allowEntrance: z.boolean().default(true),
  allowPayment: z.boolean().default(true),
  allowPurchases: z.boolean().default(true),
  bonus: money.min(0).default(0),
  minChargeAmount: money.min(0).default(0),
  maxChargeAmount: money.min(0).default(0),
  entranceState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))).default(1),
  subscriptionEndType: z.number().int().min(1).max(4).default(4),
  daysToExtend: count.default(0),
  delayBetweenEntriesMinutes: count.default(0),
  maxEntriesPerDay: count.default(0),
  maxEntriesPerDayPerSubscriber: count.default(0),
  priority: int32.default(0),
  newDayStartHour: z.number().int().min(0).max(23).default(0),
  useHalachicTimes: z.boolean().default(false),
  schedule: z.array(ScheduleRowInput).max(200).default([]),
});
export type GroupInput = z.infer<typeof GroupInput>;
/** PATCH /api/Group/{id}: any subset; `schedule`, when present, replaces every row in the given order. */
export const GroupPatch = z.strictObject(withoutDefaults(GroupInput.shape)).partial();
export type GroupPatch = z.infer<typeof GroupPatch>;

export type Group = Omit<GroupInput, 'schedule'> & {
  id: number;
  schedule: ScheduleRow[];
  clientCount: number;
};

/** A group as the API presents it: its settings, its schedule rows in list order, and its non-deleted clients' count. */
export const Group = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  allowEntrance: z.boolean(),
  allowPayment: z.boolean(),
  allowPurchases: z.boolean(),
  bonus: z.number(),
  minChargeAmount: z.number(),
  maxChargeAmount: z.number(),
  entranceState: z.number(),
  subscriptionEndType: z.number(),
  daysToExtend: z.number(),
  delayBetweenEntriesMinutes: z.number(),
  maxEntriesPerDay: z.number(),
  maxEntriesPerDayPerSubscriber: z.number(),
  priority: z.number(),
  newDayStartHour: z.number(),
  useHalachicTimes: z.boolean(),
  schedule: z.array(ScheduleRow),
  clientCount: z.number(),
});

// ---------------------------------------------------------------- general schedules

/** POST /api/Schedule, PATCH /api/Schedule/{id}: a general schedule row (not owned by a group). */
export const GeneralScheduleInput = ScheduleRowInput;
export type GeneralScheduleInput = z.infer<typeof GeneralScheduleInput>;

/**
 * PATCH /api/Schedule/{id}: any subset of a general row's fields; the merged
 * row is validated whole (GeneralScheduleInput).
 */
export const GeneralSchedulePatch = z
  .strictObject(
    Object.fromEntries(
      Object.entries(ScheduleRowInput.shape)
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v]),
    ) as {
      [K in Exclude<keyof typeof ScheduleRowInput.shape, 'id'>]: WithoutDefault<(typeof ScheduleRowInput.shape)[K]>;
    },
  )
  .partial();
export type GeneralSchedulePatch = z.infer<typeof GeneralSchedulePatch>;

/** A schedule row with its owner (null = general) and the groups a general row is linked to. */
export const ScheduleWithLinks = ScheduleRow.extend({
  groupId: z.number().nullable(),
  links: z.array(z.object({ id: z.number(), groupId: z.number(), groupName: z.string() })),
});
export type ScheduleWithLinks = z.infer<typeof ScheduleWithLinks>;

/** POST /api/ScheduleToGroup. */
export const ScheduleToGroupInput = z.strictObject({
  scheduleId: id,
  groupId: id,
});
export const ScheduleToGroup = z.object({ id: z.number(), scheduleId: z.number(), groupId: z.number() });

/** GET /api/Group/{id}/WeekPreview?from=YYYY-MM-DD (default: today in the club's zone). */
export const WeekPreviewQuery = z.object({
  from: isoDate.optional(),
  /** Preview at this terminal (rows naming it count too); default: rows for every terminal only. */
  terminalId: idParam.optional(),
  lang: z.enum(['he', 'en']).default('he'),
});

/** One effective opening window of a day: [from, to) minutes after that day's midnight (to may exceed 1440). */
export const PreviewWindow = z.object({
  from: z.number(),
  to: z.number(),
  entranceState: z.number(),
  rowId: z.number(),
  /** 'own' = the group's row, 'general' = a linked general schedule. */
  source: z.enum(['own', 'general']),
  displayName: z.string(),
  price: z.number(),
});
export type PreviewWindow = z.infer<typeof PreviewWindow>;

export const PreviewDay = z.object({
  date: z.string(),
  /** 0 = Sunday … 6 = Saturday. */
  weekday: z.number(),
  erevChag: z.boolean(),
  holidays: z.array(z.string()),
  hebrewDate: z.string(),
  /** minutes after midnight, null when the sun does not set (polar) */
  sunset: z.number().nullable(),
  nightfall: z.number().nullable(),
  windows: z.array(PreviewWindow),
});
export type PreviewDay = z.infer<typeof PreviewDay>;
export const WeekPreview = z.object({
  groupId: z.number(),
  location: z.string(),
  defaultEntranceState: z.number(),
  days: z.array(PreviewDay),
});
export type WeekPreview = z.infer<typeof WeekPreview>;
