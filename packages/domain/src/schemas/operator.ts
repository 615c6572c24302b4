import { z } from 'zod';
import { text } from '../parts.js';

/**
 * The service operator's maintenance calls (seed 000 §7 "Club"
 * /Club/GetScriptVersionList, /Db/ExecuteSql; DESIGN §10; docs/operator.md).
 */

// ---------------------------------------------------------------- terminal software versions

/**
 * A version label of the terminal software: digits and dots with an optional
 * suffix (`38.0.0`, `38.1.0-beta.2`), 1–40 characters.
 */
export const scriptVersionLabel = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+){0,3}([-+][0-9A-Za-z.-]{1,20})?$/, { message: 'invalidVersion' });

/** An http(s) address of the version's file, up to 500 characters. */
const fileUrl = text(500)
  .trim()
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), { message: 'invalidUrl' });

/** One published version of the terminal software, as `GET /Club/GetScriptVersionList` lists it. */
export const ScriptVersion = z.object({
  id: z.number().int(),
  version: z.string(),
  notes: z.string(),
  fileUrl: z.string(),
  /** When it was published (ISO 8601). */
  publishedAt: z.string(),
});
export type ScriptVersion = z.infer<typeof ScriptVersion>;

/** The operator's new version: version label, notes (up to 2000 characters), the file's http(s) URL. */
export const ScriptVersionInput = z
  .object({
    version: scriptVersionLabel,
    notes: text(2000).trim().default(''),
    fileUrl,
  })
  .strict();
export type ScriptVersionInput = z.infer<typeof ScriptVersionInput>;

/** A change to a published version: any of its fields. */
export const ScriptVersionPatch = z
  .object({ version: scriptVersionLabel, notes: text(2000).trim(), fileUrl })
  .partial()
  .strict();
export type ScriptVersionPatch = z.infer<typeof ScriptVersionPatch>;

// ---------------------------------------------------------------- maintenance query

/** Longest statement text accepted by `POST /Db/ExecuteSql`, in characters. */
export const MAINTENANCE_SQL_MAX = 10_000;
/** Rows a maintenance query answers at most (more are cut and `truncated` is set). */
export const MAINTENANCE_ROW_LIMIT = 1000;
/** Time a maintenance query may run, in milliseconds (PostgreSQL `statement_timeout`). */
export const MAINTENANCE_TIMEOUT_MS = 5000;

/** `POST /Db/ExecuteSql` (seed 000 §7): `data` is one read-only statement, `password` the configured maintenance password. */
export const ExecuteSqlInput = z
  .object({
    data: z.string().trim().min(1, { message: 'required' }).max(MAINTENANCE_SQL_MAX, { message: 'outOfRange' }),
    password: z.string().min(1, { message: 'required' }).max(200),
  })
  .strict();
export type ExecuteSqlInput = z.infer<typeof ExecuteSqlInput>;

/** The answer: column names in order, rows as objects (at most MAINTENANCE_ROW_LIMIT), and whether rows were cut. */
export const ExecuteSqlResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().int(),
  truncated: z.boolean(),
});
export type ExecuteSqlResult = z.infer<typeof ExecuteSqlResult>;
