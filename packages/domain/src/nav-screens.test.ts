import { describe, expect, it } from 'vitest';
import * as contract from './contract/areas.js';
import { NAV_SCREEN_DATA, NAV_SCREEN_ROUTES } from './nav-screens.js';

describe('the navigation entries’ screen calls', () => {
  it('each entry’s access list is the declared access of the contract entries it names', () => {
    for (const [key, names] of Object.entries(NAV_SCREEN_ROUTES)) {
      const areas = contract as unknown as Record<string, Record<string, { access: object }>>;
      const declared = names!.map((n) => {
        const [area, name] = n.split('.');
        expect(areas[area]?.[name], `${key}: no contract entry ${n}`).toBeDefined();
        return JSON.stringify(areas[area][name].access);
      });
      const listed = (NAV_SCREEN_DATA[key as keyof typeof NAV_SCREEN_DATA] ?? []).map((a) => JSON.stringify(a));
      expect([...new Set(declared)].sort(), key).toEqual([...new Set(listed)].sort());
    }
    expect(Object.keys(NAV_SCREEN_DATA).sort()).toEqual(Object.keys(NAV_SCREEN_ROUTES).sort());
  });
});
