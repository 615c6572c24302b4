import { z } from 'zod';
import type { FieldError } from '@venue/domain';
import { AppError } from './errors.js';

/** Largest value of a PostgreSQL `integer` column (ids, money in minor units, counts). */
export const INT32_MAX = 2_147_483_647;

/** Route parameter `{id}`: a positive integer that fits the id column (larger ids would be a database error, not a 404). */
export const IdParams = z.object({ id: z.coerce.number().int().positive().max(INT32_MAX) });

/** A 400 VALIDATION_ERROR with field details, the same shape the schema validation answers. */
export function validationError(details: FieldError[]): AppError {
  return new AppError('VALIDATION_ERROR', 'Invalid input', details);
}

/** Throws a VALIDATION_ERROR when `details` is not empty. */
export function assertValid(details: FieldError[]): void {
  if (details.length > 0) throw validationError(details);
}

/**
 * Field errors for every number in `value` (walked through objects and
 * arrays) that does not fit a PostgreSQL `integer`: the shared schemas bound
 * money and counts below but not above, and an overflow must answer 400, not 500.
 */
export function int32Errors(value: unknown, path = ''): FieldError[] {
  if (typeof value === 'number') {
    return Math.abs(value) > INT32_MAX ? [{ path, message: 'outOfRange' }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => int32Errors(v, join(path, String(i))));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => int32Errors(v, join(path, k)));
  }
  return [];
}

/** True for a `YYYY-MM-DD` string naming a real day (no 2025-02-30) from year 1 on. */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate(); // month length in a leap year
  if (d > days) return false;
  return !(mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
}

/** Field errors for the named date fields of `obj` that are set but not real days. */
export function dateErrors(obj: Record<string, unknown>, fields: readonly string[], prefix = ''): FieldError[] {
  return fields
    .filter((f) => typeof obj[f] === 'string' && !isRealDate(obj[f] as string))
    .map((f) => ({ path: join(prefix, f), message: 'invalidDate' }));
}

/** The PostgreSQL error code and constraint behind a (possibly Drizzle-wrapped) database error. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined };
    }
    e = e.cause as typeof e;
  }
  return {};
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}
