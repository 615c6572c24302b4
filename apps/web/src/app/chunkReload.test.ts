import { describe, expect, it } from 'vitest';
import { isChunkLoadError, reloadOnce } from './chunkReload';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

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
    expect(reloadOnce(reload, storage, 1_000_000)).toBe(true);
    expect(reloadOnce(reload, storage, 1_030_000)).toBe(false);
    expect(reloads).toBe(1);
    expect(reloadOnce(reload, storage, 1_061_000)).toBe(true);
    expect(reloads).toBe(2);
  });
});
