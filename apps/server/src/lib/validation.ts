import type { FieldError } from '@venue/domain';
import { AppError } from './errors.js';

import { INT32_MAX, isRealDate } from '@venue/domain';

export { INT32_MAX, isRealDate };

/** Route parameter `{id}` (declared with the contract in @venue/domain). */
export { IdParams } from '@venue/domain';

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
