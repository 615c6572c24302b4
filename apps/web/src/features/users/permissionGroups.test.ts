import { describe, expect, it } from 'vitest';
import { PERMISSION_FLAGS } from '@venue/domain';
import { EDITABLE_FLAGS, PERMISSION_GROUPS, passwordStrength } from './permissionGroups';

describe('permission editor groups', () => {
  it('lists each flag once, and only known flags', () => {
    expect(new Set(EDITABLE_FLAGS).size).toBe(EDITABLE_FLAGS.length);
    for (const f of EDITABLE_FLAGS) expect(PERMISSION_FLAGS as readonly string[]).toContain(f);
    expect(PERMISSION_GROUPS.every((g) => g.flags.length > 0)).toBe(true);
  });
});

describe('passwordStrength', () => {
  it('is 0 for an empty password', () => {
    expect(passwordStrength('')).toBe(0);
  });

  it('adds a point for length 8, letters with digits, symbols or mixed case, and length 12', () => {
    expect(passwordStrength('abc')).toBe(0);
    expect(passwordStrength('abcdefgh')).toBe(1);
    expect(passwordStrength('abcdefg1')).toBe(2);
    expect(passwordStrength('Abcdefg1')).toBe(3);
    expect(passwordStrength('Abcdefg1!xyz')).toBe(4);
  });

  it('counts Hebrew letters as letters', () => {
    expect(passwordStrength('שלוםשלום1')).toBe(2);
  });
});
