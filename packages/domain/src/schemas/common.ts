import { z } from 'zod';
import { idParam, INT32_MAX, text } from '../parts.js';
import { UNLIMITED_END_YEAR } from '../enums.js';

/**
 * Shared parts of the request and response schemas: the paged-list query
 * and page shape, the `{ok: true}` answer of a delete, the export language
 * query, and the id parameter.
 *
 * Conventions of every file in schemas/ (STYLE point 5; the request and
 * response schemas shared by the server, for validation and OpenAPI, and the
 * console, for forms): validation messages are i18n keys under `validation.`
 * in the console's catalogues; money is integer agorot; times of day are
 * minutes after midnight; dates are YYYY-MM-DD in the club's time zone.
 */

/** Query of every paged list: 1-based page, page size up to 500. */
export const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(INT32_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(25),
  search: text(100).trim().optional(),
  sort: text(50).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type ListQuery = z.infer<typeof ListQuery>;

/** One page of a list: `{items: T[], total}`, `total` the length of the whole list. */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

/** Answer of a delete: `{ok: true}`. */
export const OkResponse = z.object({ ok: z.literal(true) });

/** Language of an export's headers and labels (`?lang=`, default Hebrew). */
export const ExportQuery = z.object({ lang: z.enum(['he', 'en']).default('he') });

export { UNLIMITED_END_YEAR };
export const ID = idParam;
