import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '@venue/domain';
import { AppError } from './errors.js';
import { sheetTooLarge, type SheetCell, type SheetKind } from './sheet-read.js';
import { threadCpuMs } from './thread-priority.js';

/**
 * Longest a sheet may take to read (ms of the reading thread's own CPU where the system tells it,
 * else of the clock), and the reading thread's heap (MB): docs/security.md "Spreadsheet input".
 */
export const SHEET_READ_LIMITS = { timeMs: 20_000, heapMb: 512 } as const;

/**
 * However busy the machine, a reading ends after this many times its limit by the clock: the
 * thread runs at the lowest priority and may wait for a core, but not for ever.
 */
const WALL_LIMIT_FACTOR = 10;

/**
 * Reads an uploaded sheet (`readSpreadsheet`) on a worker thread of its own,
 * with a time limit and a memory limit (`resourceLimits`), so that no file —
 * however it is built — stops the server's event loop: the gate, the live
 * feed and every other club's console keep answering while it is read. The
 * thread loads the TypeScript sources through tsx, as the server does.
 * @throws AppError the reader's own refusals (UNSUPPORTED_FILE_TYPE, CSV_MALFORMED, SHEET_TOO_LARGE);
 *   SHEET_TOO_LARGE `time` or `memory` when the thread runs over its limits
 */
/** The sheet being read on this instance: one at a time, so one core stays with the gate on a small machine. */
let reading: Promise<unknown> = Promise.resolve();

export function readSpreadsheetIsolated(
  buf: Buffer,
  limits: { timeMs: number; heapMb: number } = SHEET_READ_LIMITS,
): Promise<{ kind: SheetKind; encoding?: string; rows: SheetCell[][] }> {
  const turn = reading.then(() => readOnThread(buf, limits));
  reading = turn.catch(() => undefined);
  return turn;
}

function readOnThread(
  buf: Buffer,
  limits: { timeMs: number; heapMb: number },
): Promise<{ kind: SheetKind; encoding?: string; rows: SheetCell[][] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sheet-worker.ts', import.meta.url), {
      workerData: buf,
      execArgv: ['--import', 'tsx'],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      void worker.terminate();
      fn();
    };
    // The limit counts the thread's own CPU (it runs at nice 19 and may wait for a core on a busy
    // machine), checked every 100 ms; by the clock where the thread's CPU cannot be read.
    const started = Date.now();
    let tid: number | null = null;
    const timer = setInterval(() => {
      const wall = Date.now() - started;
      const cpu = tid != null ? threadCpuMs(tid) : null;
      if ((cpu ?? wall) > limits.timeMs || wall > limits.timeMs * WALL_LIMIT_FACTOR)
        done(() => reject(sheetTooLarge('time')));
    }, 100);
    worker.on(
      'message',
      (m: {
        tid?: number | null;
        ok?: { kind: SheetKind; encoding?: string; rows: SheetCell[][] };
        refused?: { code: ErrorCode; message: string; details?: unknown };
      }) => {
        if ('tid' in m) {
          tid = m.tid ?? null;
          return;
        }
        done(() =>
          m.ok ? resolve(m.ok) : reject(new AppError(m.refused!.code, m.refused!.message, m.refused!.details)),
        );
      },
    );
    worker.on('error', (err: Error & { code?: string }) =>
      done(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? sheetTooLarge('memory') : err)),
    );
    worker.on('exit', (code) =>
      done(() => reject(new Error(`the sheet reader stopped (exit ${code}) without an answer`))),
    );
  });
}
