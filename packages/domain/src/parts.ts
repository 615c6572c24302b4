import { z } from 'zod';
import { keyOr } from './zod-keys.js';

/**
 * Shared schema parts (docs/security.md "Input"): every request
 * schema builds its ids, text, dates and money from these, so that no value
 * a PostgreSQL column cannot hold reaches the database — an id above
 * 2,147,483,647, a NUL, a lone UTF-16 surrogate, 2025-02-30 — and a caller
 * gets 400 with the field and a translated code (`validation.<code>` in the
 * console's catalogues) instead of a 500.
 */

/** Largest value of a PostgreSQL `integer` column (ids, money in agorot, counts). */
export const INT32_MAX = 2_147_483_647;

/**
 * Largest amount of one money field, in agorot (100,000,000 = 1,000,000 ₪).
 * Far above any price, load or payment of a club; far enough below INT32_MAX
 * that a balance plus one amount is still an `integer` in every realistic ledger.
 */
export const MONEY_MAX = 100_000_000;

/** Years a date field may name: births from 1900, subscription ends up to the "unlimited" year 2125 and beyond (UNLIMITED_END_YEAR). */
export const DATE_MIN_YEAR = 1900;
export const DATE_MAX_YEAR = 2200;

/** Longest free text (a note, a message body) in characters; names and codes use smaller limits. */
export const TEXT_MAX = 4000;

/** True for a `YYYY-MM-DD` string naming a day that exists (no 2025-02-30, no 0000-00-00) within DATE_MIN_YEAR..DATE_MAX_YEAR. */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < DATE_MIN_YEAR || y > DATE_MAX_YEAR || mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/**
 * True when `s` can be stored as PostgreSQL text and JSON: no NUL (U+0000)
 * and no lone UTF-16 surrogate (a high surrogate not followed by a low one,
 * or a low one alone). Pairs (emoji, rare Hebrew marks) are fine.
 */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/** Path of the first string inside `value` (objects and arrays walked) that is not storable text, or null. */
export function unstorableTextPath(
  value: unknown,
  path: (string | number)[] = [],
  depth = 0,
): (string | number)[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = unstorableTextPath(value[i], [...path, i], depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const p = isStorableText(k) ? unstorableTextPath(v, [...path, k], depth + 1) : [...path, k];
    if (p) return p;
  }
  return null;
}

/** A row id in a JSON body: a positive integer that fits the `integer` column. */
export const id = z
  .number(keyOr('invalidId'))
  .int({ message: 'invalidId' })
  .positive({ message: 'invalidId' })
  .max(INT32_MAX, { message: 'invalidId' });

/**
 * A row id the body must carry (a choice the user has to make, e.g. an
 * incident's category): left out or null it is `required`, malformed it is
 * `invalidId` — so an empty select says "required", not "invalid identifier".
 */
export const requiredId = z
  .number({ error: (issue) => (issue.input == null ? 'required' : 'invalidId') })
  .int({ message: 'invalidId' })
  .positive({ message: 'invalidId' })
  .max(INT32_MAX, { message: 'invalidId' });

/** A row id in a path or query string ("12"), coerced to a number; same bounds as `id`. */
export const idParam = z.coerce
  .number({ message: 'invalidId' })
  .int({ message: 'invalidId' })
  .positive({ message: 'invalidId' })
  .max(INT32_MAX, { message: 'invalidId' });

/**
 * Text of at most `max` characters (default TEXT_MAX) without NUL or lone
 * surrogates. Chain `.trim()`, `.min(1, ...)` as the field needs.
 */
export function text(max: number = TEXT_MAX) {
  return z.string().max(max, { message: 'tooLong' }).refine(isStorableText, { message: 'invalidText' });
}

/** A calendar date `YYYY-MM-DD` that exists, within DATE_MIN_YEAR..DATE_MAX_YEAR (club time zone). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalidDate' })
  .refine(isRealDate, { message: 'invalidDate' });

/** An amount in agorot (integer minor units), −MONEY_MAX..MONEY_MAX; chain `.positive()` / `.min(0)` as the field needs. */
export const money = z
  .number(keyOr('invalidAmount'))
  .int({ message: 'invalidAmount' })
  .min(-MONEY_MAX, { message: 'invalidAmount' })
  .max(MONEY_MAX, { message: 'invalidAmount' });

/** A count or any other non-negative whole number stored as `integer` (entries, pages, minutes). */
export const count = z.number().int().min(0).max(INT32_MAX, { message: 'outOfRange' });

/** Any whole number stored as `integer` (may be negative). */
export const int32 = z
  .number()
  .int()
  .min(-INT32_MAX - 1, { message: 'outOfRange' })
  .max(INT32_MAX, { message: 'outOfRange' });

/** A positive whole number stored as `integer` that is not an id (a quantity, a page). */
export const positiveInt = z.number().int().positive().max(INT32_MAX, { message: 'outOfRange' });

/**
 * A terminal's own event id (docs/terminal-protocol.md "Event ids"): 1–100
 * characters of letters, digits and `.`, `_`, `:`, `-`, starting with a
 * letter or digit (a UUID fits). Compared exactly — never trimmed — so the
 * answer to an event always names the id the terminal sent.
 */
export const eventId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, { message: 'invalidEventId' });
