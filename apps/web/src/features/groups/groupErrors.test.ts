import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { groupServerErrors, scheduleRowErrors } from './groupErrors';
import { emptyRow } from './scheduleRows';

const t = ((key: string, o?: { defaultValue?: string }) =>
  key === 'validation.required'
    ? 'Required'
    : key.startsWith('validation.')
      ? (o?.defaultValue ?? key)
      : key) as TFunction;

describe('group save errors', () => {
  it('sends schedule details to the row cells and the rest to group fields', () => {
    const r = groupServerErrors(t, [
      { path: 'schedule.2.price', message: 'required' },
      { path: 'name', message: 'required' },
    ]);
    expect(r.rowErrors).toEqual({ '2.price': 'Required' });
    expect(r.fields).toEqual([{ name: 'name', errors: ['Required'] }]);
  });

  it('reads a schedule path without a field as a group field error', () => {
    expect(groupServerErrors(t, [{ path: 'schedule', message: 'required' }]).fields).toEqual([
      { name: 'schedule', errors: ['Required'] },
    ]);
  });

  it('finds no error in default rows and keys a bad row by its index and field', () => {
    expect(scheduleRowErrors(t, [emptyRow(), emptyRow()])).toEqual({});
    const bad = { ...emptyRow(), days: [] as number[] };
    const errs = scheduleRowErrors(t, [emptyRow(), bad]);
    expect(Object.keys(errs)).toEqual(['1.days']);
  });
});
