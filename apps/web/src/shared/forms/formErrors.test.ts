import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { ClientInput } from '@venue/domain';
import { ApiError } from '../../platform/api/apiClient';
import { checkWithSchema, fieldOutcome, formErrorOutcome, recheckChanged, rootOutcome } from './formErrors';

const CATALOGUE: Record<string, string> = {
  'errors.GENERAL_ERROR': 'Something went wrong',
  'errors.NOT_FOUND': 'Not found',
  'errors.USER_NAME_EXISTS': 'User name taken',
  'validation.required': 'Required',
  'validation.invalid': 'Invalid value',
};

/** A t() that knows a few keys and otherwise returns the default value (as i18next does). */
const t = ((key: string, opts?: { defaultValue?: string }) => CATALOGUE[key] ?? opts?.defaultValue ?? key) as TFunction;

describe('formErrorOutcome', () => {
  it('puts server field details on their fields, numeric segments as indexes', () => {
    const err = new ApiError(400, 'VALIDATION_ERROR', 'bad', [
      { path: 'name', message: 'required' },
      { path: 'phones.1.number', message: 'no-such-key' },
    ]);
    expect(formErrorOutcome(t, err)).toEqual({
      fields: [
        { name: ['name'], errors: ['Required'] },
        { name: ['phones', 1, 'number'], errors: ['Invalid value'] },
      ],
      root: null,
    });
  });

  it('renames server paths to form fields', () => {
    const err = new ApiError(400, 'VALIDATION_ERROR', 'bad', [{ path: 'endDate', message: 'required' }]);
    const outcome = formErrorOutcome(t, err, { fieldName: (p) => (p[0] === 'endDate' ? ['dates'] : p) });
    expect(outcome.fields).toEqual([{ name: ['dates'], errors: ['Required'] }]);
  });

  it('gives one translated root message for an error without field details', () => {
    expect(formErrorOutcome(t, new ApiError(404, 'NOT_FOUND', 'Client 7 not found'))).toEqual({
      fields: [],
      root: 'Not found',
    });
  });

  it('ignores details with an empty path (they belong to no field)', () => {
    const err = new ApiError(400, 'VALIDATION_ERROR', 'bad', [{ path: '', message: 'required' }]);
    const outcome = formErrorOutcome(t, err);
    expect(outcome.fields).toEqual([]);
    expect(outcome.root).toBe('Something went wrong');
  });

  it('words errors that are not ApiError as GENERAL_ERROR, never their own text', () => {
    expect(formErrorOutcome(t, new Error('ECONNRESET'))).toEqual({ fields: [], root: 'Something went wrong' });
  });

  it('lets a form read its own codes first and falls back otherwise', () => {
    const byCode = (e: ApiError) =>
      e.code === 'USER_NAME_EXISTS' ? fieldOutcome(['username'], t('errors.USER_NAME_EXISTS')) : undefined;
    expect(formErrorOutcome(t, new ApiError(409, 'USER_NAME_EXISTS', 'x'), { byCode })).toEqual({
      fields: [{ name: ['username'], errors: ['User name taken'] }],
      root: null,
    });
    expect(formErrorOutcome(t, new ApiError(404, 'NOT_FOUND', 'x'), { byCode }).root).toBe('Not found');
  });

  it('rootOutcome carries only a root message', () => {
    expect(rootOutcome('Limit reached')).toEqual({ fields: [], root: 'Limit reached' });
  });
});

describe('checkWithSchema', () => {
  it('returns the parsed data when the schema accepts the input', () => {
    const r = checkWithSchema(t, ClientInput.pick({ firstName: true }), { firstName: ' Dana ' });
    expect(r).toEqual({ ok: true, data: { firstName: 'Dana' } });
  });

  it('returns translated field errors at the schema paths when it does not', () => {
    const r = checkWithSchema(t, ClientInput.pick({ firstName: true }), { firstName: '  ' });
    expect(r).toEqual({ ok: false, fields: [{ name: ['firstName'], errors: ['Required'] }] });
  });
});

describe('recheckChanged (errors clear when fixed)', () => {
  const placed = [
    { name: ['firstName'], value: JSON.stringify('') },
    { name: ['phones', 0, 'number'], value: JSON.stringify('12') },
    { name: ['cardSerial'], value: JSON.stringify('C1') },
  ];
  it('clears the error of a field that was filled, keeps a changed field’s new error, leaves unchanged fields alone', () => {
    const values = { firstName: 'Sara', phones: [{ number: '123' }], cardSerial: 'C1' };
    const issues = [{ name: ['phones', 0, 'number'], errors: ['Invalid phone number'] }];
    expect(recheckChanged(placed, values, issues)).toEqual([
      { name: ['firstName'], errors: [] },
      { name: ['phones', 0, 'number'], errors: ['Invalid phone number'] },
    ]);
  });
  it('changes nothing while no placed field changed', () => {
    expect(recheckChanged(placed, { firstName: '', phones: [{ number: '12' }], cardSerial: 'C1' }, [])).toEqual([]);
  });
});
