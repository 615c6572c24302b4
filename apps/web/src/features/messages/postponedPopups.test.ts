import { describe, expect, it } from 'vitest';
import { postponedPopups, postponePopup, sessionMark, type PopupStorage } from './postponedPopups';

/** localStorage of a browser, in memory. */
function memoryStorage(): PopupStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('popups put off with "Later"', () => {
  it('stay put off for the same sign-in (a reload reads them again), not for the next one', () => {
    const storage = memoryStorage();
    const first = sessionMark('header.payload.signature-of-the-first-sign-in');
    postponePopup(first, 12, storage);
    postponePopup(first, 7, storage);
    // A reload: the same token, a new read of the storage.
    expect([...postponedPopups(first, storage)].sort()).toEqual([12, 7].sort());
    // The next sign-in has another token: nothing is put off.
    const second = sessionMark('header.payload.signature-of-the-next-sign-in!');
    expect(second).not.toBe(first);
    expect(postponedPopups(second, storage).size).toBe(0);
    postponePopup(second, 3, storage);
    expect([...postponedPopups(second, storage)]).toEqual([3]);
    expect(postponedPopups(first, storage).size).toBe(0);
  });

  it('without a sign-in or with a damaged entry, nothing is put off and nothing is stored', () => {
    const storage = memoryStorage();
    expect(sessionMark(null)).toBe('');
    postponePopup('', 5, storage);
    expect(storage.data.size).toBe(0);
    storage.setItem('venue.popupsLater', '{not json');
    expect(postponedPopups('abc', storage).size).toBe(0);
    storage.setItem('venue.popupsLater', JSON.stringify({ session: 'abc', ids: [1, 'x', 2.5] }));
    expect([...postponedPopups('abc', storage)]).toEqual([1]);
  });
});
