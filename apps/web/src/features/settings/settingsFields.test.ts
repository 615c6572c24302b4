import { describe, expect, it } from 'vitest';
import { OPERATOR_ONLY_SETTINGS } from '@venue/domain';
import { changedSettings, SECTIONS } from './settingsFields';

describe('settings screen data', () => {
  const keys = SECTIONS.flatMap((s) => s.fields.map((f) => f.key));

  it('lists each setting once', () => {
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('shows every operator-only setting (so it can be shown locked)', () => {
    for (const k of OPERATOR_ONLY_SETTINGS) expect(keys, k).toContain(k);
  });

  it('gives a fee type field for every fee value', () => {
    for (const f of SECTIONS.flatMap((s) => s.fields).filter((x) => x.kind === 'feeValue')) {
      expect(keys).toContain(f.feeTypeKey);
    }
  });
});

describe('changedSettings', () => {
  const [a, b] = keys2();
  function keys2(): [string, string] {
    const all = SECTIONS.flatMap((s) => s.fields.map((f) => f.key));
    return [all[0]!, all[1]!];
  }

  it('keeps only the settings whose value changed', () => {
    expect(changedSettings({ [a]: 'x', [b]: 1 }, { [a]: 'x', [b]: 2 })).toEqual({ [b]: 2 });
  });

  it('is empty when nothing changed ("No changes made", seed 001 §8)', () => {
    expect(changedSettings({ [a]: ['he', 'en'] }, { [a]: ['he', 'en'] })).toEqual({});
  });

  it('treats missing and null alike, and ignores keys that are not settings', () => {
    expect(changedSettings({ [a]: null }, { [a]: undefined, notASetting: 5 })).toEqual({});
    expect(changedSettings({}, { [a]: 0 })).toEqual({ [a]: 0 });
  });
});
