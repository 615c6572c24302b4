import { z } from 'zod';
import { PERSONAL_DATA_KINDS } from '../contract/route.js';

/**
 * Privacy by design (issue 39, docs/privacy.md): the retention job's runs and the club's
 * retention horizon, a client's copy and erasure, and the reads of a client's record.
 */

/** Rows one retention run removed, by table name (docs/privacy.md "Retention"). */
export const RetentionRemoved = z.record(z.string(), z.number().int());
export type RetentionRemoved = z.infer<typeof RetentionRemoved>;

/** One run of the retention job over one club. */
export const RetentionRun = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Entrances of local days before this one are kept as daily counts only (YYYY-MM-DD). */
  entranceDetailFrom: z.string(),
  removed: RetentionRemoved,
});
export type RetentionRun = z.infer<typeof RetentionRun>;

/** GET /api/Privacy/Retention: the club's rules in force, its horizon and its last runs (newest first). */
export const RetentionStatus = z.object({
  entranceDays: z.number().int(),
  attendanceDays: z.number().int(),
  biometricDays: z.number().int(),
  accessLogDays: z.number().int(),
  /** The first local day whose entrances are kept in detail; null before any run. */
  entranceDetailFrom: z.string().nullable(),
  /**
   * Visitor mode (docs/privacy.md "Visitor mode"): entrances are kept per person only for
   * `visitorWindowHours` (the decision window); reports show the daily counts before that.
   */
  visitorMode: z.boolean(),
  /** The decision window in hours (whole, rounded up); 0 when visitor mode is off. */
  visitorWindowHours: z.number().int(),
  runs: z.array(RetentionRun),
});
export type RetentionStatus = z.infer<typeof RetentionStatus>;

/** The language of a client's copy (its PDF's words and direction). */
export const ClientCopyQuery = z.object({ lang: z.enum(['he', 'en']).default('he') });
export type ClientCopyQuery = z.infer<typeof ClientCopyQuery>;

/** A client's copy as JSON (docs/privacy.md "A client's copy"): every row about her, by table. */
export const ClientCopy = z.object({
  clientId: z.number().int(),
  clubId: z.number().int(),
  generatedAt: z.string(),
  /** Rows by table name, as stored (secrets and ciphertexts left out, see docs/privacy.md). */
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type ClientCopy = z.infer<typeof ClientCopy>;

/** POST /api/Privacy/EraseClient/:id: the client's number typed again, as the confirmation. */
export const EraseClientInput = z.object({ confirmNumber: z.number().int().min(1) });
export type EraseClientInput = z.infer<typeof EraseClientInput>;

/** What an erasure did, by table: rows pseudonymised or deleted, and rows kept as the law requires. */
export const ErasureResult = z.object({
  clientId: z.number().int(),
  pseudonymised: z.record(z.string(), z.number().int()),
  deleted: z.record(z.string(), z.number().int()),
  kept: z.record(z.string(), z.number().int()),
});
export type ErasureResult = z.infer<typeof ErasureResult>;

/** One read of a client's record ("who opened my record"). */
export const DataAccessRow = z.object({
  at: z.string(),
  userId: z.number().int().nullable(),
  userName: z.string(),
  kind: z.enum(PERSONAL_DATA_KINDS),
  subject: z.string(),
  ip: z.string(),
});
export type DataAccessRow = z.infer<typeof DataAccessRow>;
