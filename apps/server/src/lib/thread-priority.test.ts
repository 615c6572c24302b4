import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, threadNice } from './thread-priority.js';

/**
 * Background threads (the sheet reader, lib/sheet-worker.ts) lower their own
 * priority and only their own: the event loop that decides at the gate keeps
 * nice 0 (docs/security.md "Spreadsheet input").
 */
describe.runIf(process.platform === 'linux')('a background thread lowers its own priority', () => {
  it('the worker thread runs at nice 19; the main thread is unchanged', async () => {
    const before = os.getPriority(0);
    const url = new URL('./thread-priority.ts', import.meta.url).href;
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       import(${JSON.stringify(url)}).then((m) => parentPort.postMessage(m.lowerThisThreadPriority()));
       setInterval(() => {}, 1000);`,
      { eval: true, execArgv: ['--import', 'tsx'] },
    );
    try {
      const tid = await new Promise<number | null>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(tid).toBeGreaterThan(0);
      expect(tid).not.toBe(process.pid);
      expect(threadNice(tid!)).toBe(BACKGROUND_NICE);
      expect(os.getPriority(0)).toBe(before);
      expect(os.getPriority(process.pid)).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
