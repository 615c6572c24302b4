import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { ApiError } from '../../platform/api/apiClient';
import { errorText, serverFieldIssues, zodFieldIssues, type FieldIssue } from '../errors';

/** A form field's name path, as antd takes it (`['phones', 0]`). */
export type FieldPath = (string | number)[];

/**
 * What a failed save shows: field errors under their inputs and at most one
 * translated root message for what belongs to no field. Exactly one of the two
 * is non-empty.
 */
export interface FormErrorOutcome {
  fields: FieldIssue[];
  root: string | null;
}

/** How a form reads a server error beyond the default mapping. */
export interface FormErrorOptions {
  /** Renames a schema or server field path to the form's field (e.g. `endDate` → `dates`); default: unchanged. */
  fieldName?: (path: FieldPath) => FieldPath;
  /**
   * A form's own reading of some error codes (e.g. `USER_NAME_EXISTS` on the
   * user name field); return undefined to fall back to the default mapping.
   */
  byCode?: (err: ApiError) => FormErrorOutcome | undefined;
}

/**
 * Result of checking form input against a zod schema of `@venue/domain`:
 * the parsed data, or the translated field errors (messages of schemas.ts are
 * `validation.<key>` keys).
 */
export type SchemaCheck<T> = { ok: true; data: T } | { ok: false; fields: FieldIssue[] };

/** Safe-parses `input` with `schema`; failures become translated field errors. */
export function checkWithSchema<S extends z.ZodType>(
  t: TFunction,
  schema: S,
  input: unknown,
): SchemaCheck<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, fields: zodFieldIssues(t, parsed.error) };
}

/**
 * Maps an error of a save call onto the form: the server's VALIDATION_ERROR
 * details (`ApiError.details`, dot paths) become field errors, renamed by
 * `fieldName`; any other error (or one without field details) becomes the
 * translated root message `errors.<code>` (STYLE point 8: never the server's
 * English). Errors that are not ApiError are `errors.GENERAL_ERROR`.
 */
export function formErrorOutcome(t: TFunction, err: unknown, options: FormErrorOptions = {}): FormErrorOutcome {
  if (err instanceof ApiError && options.byCode) {
    const own = options.byCode(err);
    if (own) return own;
  }
  const rename = options.fieldName ?? ((p: FieldPath) => p);
  const fields = serverFieldIssues(t, err).map((i) => ({ ...i, name: rename(i.name) }));
  if (fields.length > 0) return { fields, root: null };
  return { fields: [], root: errorText(t, err) };
}

/** An outcome that puts one translated message on one field (a code the form knows). */
export function fieldOutcome(name: FieldPath, text: string): FormErrorOutcome {
  return { fields: [{ name, errors: [text] }], root: null };
}

/** An outcome with only a root message (a code the form words itself). */
export function rootOutcome(text: string): FormErrorOutcome {
  return { fields: [], root: text };
}

/** The value at a field's name path in a form's values (undefined when absent). */
export function valueAt(values: unknown, name: FieldPath): unknown {
  let v: unknown = values;
  for (const k of name) {
    if (v == null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** A field error the form placed, with the field's value when it was placed (JSON). */
export interface PlacedError {
  name: FieldPath;
  value: string;
}

/**
 * Errors clear when fixed (issue 19): for every placed error whose field changed since,
 * the field's errors now — the schema's issues of that field, or none. Fields that did not
 * change keep theirs (a server error such as "card taken" stays until the field is edited).
 */
export function recheckChanged(
  placed: readonly PlacedError[],
  values: unknown,
  issues: readonly FieldIssue[],
): FieldIssue[] {
  const key = (n: FieldPath) => JSON.stringify(n);
  return placed
    .filter((p) => JSON.stringify(valueAt(values, p.name) ?? null) !== p.value)
    .map((p) => ({
      name: p.name,
      errors: issues.filter((i) => key(i.name) === key(p.name)).flatMap((i) => i.errors),
    }));
}
