import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES } from '@venue/domain';
import { screenTitleKey } from './pageTitle';
import { pageTitle } from '../shared/pageTitle';
import { EXTRA_ROUTES } from './screens';
import { catalogues } from './catalogues';

const { he, en } = catalogues;

const lookup = (cat: unknown, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), cat);

describe('page titles', () => {
  it('names every navigation screen by its entry, and a route under an entry by the entry', () => {
    for (const e of NAV_ENTRIES) expect(screenTitleKey(e.route)).toBe(`nav.${e.key}`);
    expect(screenTitleKey('/management/clients/12')).toBe('nav.clients');
    expect(screenTitleKey('/management/app-terminals-list/3/')).toBe('nav.terminals');
    expect(screenTitleKey('/management/app-settings/licenses')).toBe('licenses.title');
    expect(screenTitleKey('/nowhere')).toBeNull();
  });

  it('gives every signed-in route of the router a name in both catalogues', () => {
    const routes = [...NAV_ENTRIES.map((e) => e.route), ...EXTRA_ROUTES.filter((r) => !r.public).map((r) => r.path)];
    for (const r of routes) {
      const key = screenTitleKey(r.replace(/:\w+/g, '1'));
      expect(key, r).not.toBeNull();
      expect(typeof lookup(he, key!), `he ${key}`).toBe('string');
      expect(typeof lookup(en, key!), `en ${key}`).toBe('string');
    }
  });

  it('joins the screen and the club with a dash', () => {
    expect(pageTitle('לקוחות', 'מקווה הדגמה')).toBe('לקוחות — מקווה הדגמה');
    expect(pageTitle(null, 'Demo')).toBe('Demo');
  });
});
