import { describe, expect, it } from 'vitest';
import { isChunkLoadError, reloadOnce } from './chunkReload';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

const ONLINE = { online: true, whenOnline: () => undefined };

describe('chunk reload', () => {
  it('knows a failed code-file load in the words of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('reloads once, then not again within a minute, then again after it', () => {
    const storage = memoryStorage();
    let reloads = 0;
    const reload = () => void reloads++;
    expect(reloadOnce(reload, storage, 1_000_000, ONLINE)).toBe(true);
    expect(reloadOnce(reload, storage, 1_030_000, ONLINE)).toBe(false);
    expect(reloads).toBe(1);
    expect(reloadOnce(reload, storage, 1_061_000, ONLINE)).toBe(true);
    expect(reloads).toBe(2);
  });

  it('offline, waits for the link to return before it reloads', () => {
    const storage = memoryStorage();
    let reloads = 0;
    let pending: (() => void) | null = null;
    const link = { online: false, whenOnline: (then: () => void) => void (pending = then) };
    expect(reloadOnce(() => void reloads++, storage, 1_000_000, link)).toBe(true);
    expect(reloads).toBe(0);
    pending!();
    expect(reloads).toBe(1);
  });
});
