import { readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * The nice value of background threads (Linux: 19, the lowest priority): a
 * thread at 19 against the event loop's 0 gets about 1/70 of a contended core
 * under the kernel's fair scheduler (CFS weights 15 and 1024), so reading a
 * large sheet or building an export never takes a core from the gate's
 * decisions, yet runs at full speed on an idle machine.
 */
export const BACKGROUND_NICE = 19;

/**
 * Lowers the priority of the calling thread only (not the process: on Linux
 * each thread has its own nice value, and `setpriority(PRIO_PROCESS, tid)`
 * sets one thread's). Call it first thing in a worker thread
 * (`node:worker_threads`). The thread's kernel id is read from
 * `/proc/thread-self` ("<pid>/task/<tid>"). A process may always lower its
 * own threads' priority; elsewhere than Linux, or when /proc is not mounted,
 * it does nothing.
 * @returns the thread id whose priority was set, or null when it could not be
 */
export function lowerThisThreadPriority(nice = BACKGROUND_NICE): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    os.setPriority(tid, nice);
    return tid;
  } catch {
    return null;
  }
}

/** The nice value of a thread of this process (Linux), or null. */
export function threadNice(tid: number): number | null {
  try {
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
