import { describe, expect, it } from 'vitest';
import { captureLoginParams, forgetLoginPassword, takeLoginParams } from './loginParams';

/** The sign-in link's password leaves the address bar and the history first thing (docs/security.md "Logs"). */
describe('the sign-in link', () => {
  it('keeps the values in memory, removes them from the address, keeps the rest; the password is forgotten when asked', () => {
    const calls: string[] = [];
    const loc = {
      search: '?userName=admin&password=demo1234&externalClubId=1001&lang=en',
      pathname: '/login',
      hash: '#x',
    } as Location;
    const hist = {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => void calls.push(url),
    } as unknown as History;
    captureLoginParams(loc, hist);
    expect(calls).toEqual(['/login?lang=en#x']);
    expect(takeLoginParams()).toEqual({ userName: 'admin', password: 'demo1234', externalClubId: '1001' });
    expect(takeLoginParams().password).toBe('demo1234'); // read twice alike (React's strict mode)
    forgetLoginPassword();
    expect(takeLoginParams()).toEqual({ userName: 'admin', password: '', externalClubId: '1001' });
  });

  it('leaves an address without them untouched', () => {
    const calls: string[] = [];
    const hist = {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => void calls.push(url),
    } as unknown as History;
    captureLoginParams({ search: '?tab=2', pathname: '/management/clients', hash: '' } as Location, hist);
    expect(calls).toEqual([]);
  });
});
