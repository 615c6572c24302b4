import { describe, expect, it } from 'vitest';
import { UserInput, UserPatch, UserRole } from '@venue/domain';
import { EDITABLE_FLAGS } from './permissionGroups';
import { allPermissions, roleName, userFormValues, userRequestBody, type UserFormValues } from './userForm';

const values: UserFormValues = {
  username: 'dana',
  password: '',
  name: 'Dana',
  language: 'en',
  isAdmin: false,
  role: UserRole.REGULAR,
  employeePositionId: null,
  disabled: false,
};

describe('userForm', () => {
  it('names role numbers and reads unknown ones as REGULAR', () => {
    expect(roleName(UserRole.REGULAR)).toBe('REGULAR');
    expect(roleName(-99)).toBe('REGULAR');
    for (const [name, n] of Object.entries(UserRole)) expect(roleName(n)).toBe(name);
  });

  it('starts a new user as a Hebrew-speaking regular user without a password', () => {
    expect(userFormValues(null)).toEqual({ ...values, username: '', name: '', language: 'he' });
  });

  it('sets every editable flag at once', () => {
    const on = allPermissions(true);
    expect(Object.keys(on).sort()).toEqual([...EDITABLE_FLAGS].sort());
    expect(Object.values(allPermissions(false)).every((v) => v === false)).toBe(true);
  });

  it('sends every editable flag, unchecked ones as false', () => {
    const flag = EDITABLE_FLAGS[0]!;
    const body = userRequestBody(values, { [flag]: true }, false) as { permissions: Record<string, boolean> };
    expect(Object.keys(body.permissions)).toHaveLength(EDITABLE_FLAGS.length);
    expect(body.permissions[flag]).toBe(true);
    expect(Object.values(body.permissions).filter(Boolean)).toHaveLength(1);
  });

  it('leaves the password out of an edit when the field is empty, and sends it when typed', () => {
    expect(userRequestBody(values, {}, false)).not.toHaveProperty('password');
    expect(userRequestBody({ ...values, password: 'Secret-123' }, {}, false)).toHaveProperty('password', 'Secret-123');
    expect(UserPatch.safeParse(userRequestBody(values, {}, false)).success).toBe(true);
  });

  it('sends the current password with a new password of one’s own, never without a new password', () => {
    const mine = { ...values, password: 'Secret-123', currentPassword: 'Old-pass-1' };
    expect(userRequestBody(mine, {}, false)).toMatchObject({ password: 'Secret-123', currentPassword: 'Old-pass-1' });
    expect(userRequestBody({ ...mine, password: '' }, {}, false)).not.toHaveProperty('currentPassword');
  });

  it('always sends the password of a new user, so the schema can require it', () => {
    const body = userRequestBody(values, {}, true);
    expect(body).toHaveProperty('password', '');
    expect(UserInput.safeParse(body).success).toBe(false);
  });
});
