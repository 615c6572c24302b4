import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { AttendanceLogInput, type AttendanceLog } from '@venue/domain';
import { attendanceBody, attendanceFormValues } from './attendanceForm';

const record: AttendanceLog = {
  id: 1,
  clientId: 7,
  clientName: 'Rivka Cohen',
  clientNumber: 12,
  clientType: 2,
  entryAt: '2026-01-05T06:00:00.000Z',
  entryTerminalId: 3,
  entryTerminalName: 'Gate',
  entrySource: 'terminal',
  exitAt: null,
  exitTerminalId: null,
  exitTerminalName: null,
  exitSource: null,
  exitAutomatic: false,
  minutes: null,
  comment: 'x',
  original: null,
  modifications: [],
  createdAt: '2026-01-05T06:00:00.000Z',
};

describe('attendance form', () => {
  it('round-trips a record through the form values to the same body', () => {
    expect(attendanceBody(attendanceFormValues(record))).toEqual({
      clientId: 7,
      entryAt: '2026-01-05T06:00:00.000Z',
      entryTerminalId: 3,
      exitAt: null,
      exitTerminalId: null,
      comment: 'x',
    });
  });

  it('starts a new record with an entry now and no employee, which the schema refuses until one is chosen', () => {
    const now = dayjs('2026-01-05T08:30:42Z');
    const body = attendanceBody(attendanceFormValues(null, now));
    expect(body.entryAt).toBe('2026-01-05T08:30:00.000Z');
    const parsed = AttendanceLogInput.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message)).toEqual(['clientRequired']);
  });

  it('the shared schema words each rule of seed 001 §5', () => {
    const issues = (v: object) =>
      AttendanceLogInput.safeParse({ clientId: 7, ...v }).error?.issues.map((i) => i.message) ?? [];
    expect(issues({})).toEqual(['timeRequired']);
    expect(issues({ entryAt: '2026-01-05T08:00:00Z', exitAt: '2026-01-05T07:00:00Z' })).toEqual(['exitBeforeEntry']);
    expect(issues({ exitAt: dayjs().add(1, 'hour').toISOString() })).toEqual(['futureTime']);
  });
});
