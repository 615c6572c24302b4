import dayjs, { type Dayjs } from 'dayjs';
import type { AttendanceLog, AttendanceLogInput } from '@venue/domain';
import type { FieldPath } from '../../shared/forms/formErrors';

/** The record form's values: times as dayjs (the browser's clock), terminals and employee as ids. */
export interface AttendanceFormValues {
  clientId: number | null;
  entryAt: Dayjs | null;
  entryTerminalId: number | null;
  exitAt: Dayjs | null;
  exitTerminalId: number | null;
  comment: string;
}

/** A record's form values; a new record has an entry now and no exit (the employee who just came in). */
export function attendanceFormValues(r: AttendanceLog | null, now: Dayjs = dayjs()): AttendanceFormValues {
  if (!r) {
    return {
      clientId: null,
      entryAt: now.second(0),
      entryTerminalId: null,
      exitAt: null,
      exitTerminalId: null,
      comment: '',
    };
  }
  return {
    clientId: r.clientId,
    entryAt: r.entryAt ? dayjs(r.entryAt) : null,
    entryTerminalId: r.entryTerminalId,
    exitAt: r.exitAt ? dayjs(r.exitAt) : null,
    exitTerminalId: r.exitTerminalId,
    comment: r.comment,
  };
}

/** Form values → the AttendanceLogInput body: instants as ISO strings with the offset, seconds dropped. */
export function attendanceBody(v: AttendanceFormValues): AttendanceLogInput {
  const at = (d: Dayjs | null | undefined) => (d ? d.second(0).millisecond(0).toISOString() : null);
  return {
    clientId: v.clientId ?? null,
    entryAt: at(v.entryAt),
    entryTerminalId: v.entryTerminalId ?? null,
    exitAt: at(v.exitAt),
    exitTerminalId: v.exitTerminalId ?? null,
    comment: v.comment ?? '',
  };
}

/** Field errors of the body land on the form's fields of the same names. */
export function attendanceField(path: FieldPath): FieldPath {
  return path;
}
