import { describe, expect, it } from 'vitest';
import {
  isChunkLoadError,
  recoverFromChunkError,
  reloadWhenServerAnswers,
  takeReloadAllowance,
  type ChunkRecovery,
  type ReloadDeps,
} from './chunkReload';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

/** A server that answers from the `up`-th probe on (0: at once, Infinity: never), counting reloads and waits. */
function fakeServer(up: number) {
  const state = { probes: 0, reloads: 0, waits: [] as number[] };
  const deps: ReloadDeps = {
    probe: async () => state.probes++ >= up,
    reload: () => void state.reloads++,
    sleep: async (ms) => void state.waits.push(ms),
  };
  return { state, deps };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('chunk reload', () => {
  it('knows a failed code-file load in the words of Chromium, Firefox and Safari', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('allows one reload a minute', () => {
    const storage = memoryStorage();
    expect(takeReloadAllowance(storage, 1_000_000)).toBe(true);
    expect(takeReloadAllowance(storage, 1_030_000)).toBe(false);
    expect(takeReloadAllowance(storage, 1_061_000)).toBe(true);
  });

  it('never reloads into a server that does not answer: waits, asking every 1 s to 5 s, then reloads', async () => {
    const { state, deps } = fakeServer(5);
    let down = 0;
    reloadWhenServerAnswers(() => void down++, deps);
    for (let i = 0; i < 20; i++) await settle();
    expect(state.reloads).toBe(1);
    expect(state.probes).toBe(6);
    expect(down).toBe(1);
    expect(state.waits).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('stops waiting when told to (the screen was left)', async () => {
    const { state, deps } = fakeServer(Infinity);
    deps.sleep = () => new Promise((r) => setTimeout(r, 0));
    const stop = reloadWhenServerAnswers(() => undefined, deps);
    await settle();
    stop();
    for (let i = 0; i < 10; i++) await settle();
    const probes = state.probes;
    for (let i = 0; i < 10; i++) await settle();
    expect(state.probes).toBe(probes);
    expect(state.reloads).toBe(0);
  });

  it('a missing code file with the server up: reloads once, then within a minute says there is a new version', async () => {
    const storage = memoryStorage();
    const { state, deps } = fakeServer(0);
    const seen: ChunkRecovery[] = [];
    recoverFromChunkError(
      (s) => seen.push(s),
      deps,
      storage,
      () => 1_000_000,
    );
    await settle();
    recoverFromChunkError(
      (s) => seen.push(s),
      deps,
      storage,
      () => 1_020_000,
    );
    await settle();
    expect(seen).toEqual(['reloading', 'newVersion']);
    expect(state.reloads).toBe(1);
  });

  it('a code file that failed while the server is down: reconnecting, then a reload when it answers, whatever the allowance', async () => {
    const storage = memoryStorage();
    takeReloadAllowance(storage, 1_000_000); // a reload a moment ago
    const { state, deps } = fakeServer(3);
    const seen: ChunkRecovery[] = [];
    recoverFromChunkError(
      (s) => seen.push(s),
      deps,
      storage,
      () => 1_010_000,
    );
    for (let i = 0; i < 20; i++) await settle();
    expect(seen).toEqual(['reconnecting']);
    expect(state.reloads).toBe(1);
  });
});
