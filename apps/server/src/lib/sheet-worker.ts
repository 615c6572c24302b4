import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from './errors.js';
import { readSpreadsheet } from './sheet-read.js';
import { lowerThisThreadPriority } from './thread-priority.js';

/**
 * The worker thread that reads one uploaded sheet (lib/sheet-isolated.ts):
 * the bytes come in `workerData`, the rows or the refusal go back as one
 * message. A crash, a timeout or running out of its memory ends only this
 * thread, never the server's event loop.
 */
// Background work: the event loop (the gate's decisions) keeps its core on a contended machine.
lowerThisThreadPriority();
const buf = Buffer.from(workerData as Uint8Array);
try {
  parentPort!.postMessage({ ok: readSpreadsheet(buf) });
} catch (err) {
  if (err instanceof AppError)
    parentPort!.postMessage({ refused: { code: err.code, message: err.message, details: err.details } });
  else throw err;
}
