import type { TFunction } from 'i18next';
import { ScheduleRowInput } from '@venue/domain';
import { validationText } from '../../shared/errors';
import { toInputRows, type EditableRow } from './scheduleRows';

/**
 * Errors of the edited schedule rows by `<row index>.<field>` (ScheduleRowInput),
 * translated, for the schedule editor's cells.
 */
export function scheduleRowErrors(t: TFunction, rows: readonly EditableRow[]): Record<string, string> {
  const errs: Record<string, string> = {};
  rows.forEach((r, i) => {
    const { key: _k, ...rest } = r;
    const res = ScheduleRowInput.safeParse(toInputRows([{ ...rest, key: '' }])[0]);
    if (!res.success)
      for (const is of res.error.issues) errs[`${i}.${String(is.path[0] ?? '')}`] = validationText(t, is.message);
  });
  return errs;
}

/**
 * The server's field details of a group save: `schedule.<i>.<field>` go to
 * the schedule editor's cells (`<i>.<field>`), anything else to the group
 * field named by the path's first part.
 */
export function groupServerErrors(
  t: TFunction,
  details: readonly { path: string; message: string }[],
): { rowErrors: Record<string, string>; fields: { name: string; errors: string[] }[] } {
  const rowErrors: Record<string, string> = {};
  const fields: { name: string; errors: string[] }[] = [];
  for (const d of details) {
    const parts = d.path.split('.');
    if (parts[0] === 'schedule' && parts.length >= 3)
      rowErrors[`${parts[1]}.${parts[2]}`] = validationText(t, d.message);
    else fields.push({ name: parts[0], errors: [validationText(t, d.message)] });
  }
  return { rowErrors, fields };
}
