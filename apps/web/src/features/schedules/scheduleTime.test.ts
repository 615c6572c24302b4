import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { scheduleTimeText } from './scheduleTime';

const t = ((key: string) => (key === 'halachicTime.3' ? 'tzeit' : key)) as TFunction;

describe('scheduleTimeText', () => {
  it('writes a halachic time with a signed offset in minutes, none when 0', () => {
    expect(scheduleTimeText(t, null, 3, 20)).toBe('tzeit +20');
    expect(scheduleTimeText(t, null, 3, -15)).toBe('tzeit -15');
    expect(scheduleTimeText(t, 600, 3, 0)).toBe('tzeit');
  });

  it('writes a fixed time as HH:MM, and a dash when there is none', () => {
    expect(scheduleTimeText(t, 8 * 60 + 5, null, 0)).toBe('08:05');
    expect(scheduleTimeText(t, null, null, 0)).toBe('—');
  });
});
