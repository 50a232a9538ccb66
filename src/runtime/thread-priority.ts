import { readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * How much lower than the main thread the station's worker threads run (Linux nice increment).
 * The main thread only parses requests and answers, and must answer within ~100 ms whatever the
 * workers chew on (issue #18: /health under hostile load); decoding, extraction, matching and PDF
 * rendering are throughput work. On a machine with fewer cores than busy threads the kernel then
 * runs the main thread first instead of sharing the cores evenly with every worker.
 */
export const WORKER_NICE_INCREMENT = 10;

/**
 * Lowers the scheduling priority of the calling worker thread by `increment` (never above 19). On
 * Linux setpriority(PRIO_PROCESS, tid) applies to one thread; the thread id is read from
 * /proc/thread-self. Threads this thread starts later (onnxruntime's, for one) inherit it. Elsewhere
 * (macOS, Windows) a process-wide priority would also slow the main thread, so nothing is changed.
 * @returns the thread's new nice value, or undefined when nothing was changed (not Linux, the main
 *   thread, or the kernel refused).
 */
export function lowerWorkerThreadPriority(increment = WORKER_NICE_INCREMENT): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return undefined;
    const nice = Math.min(19, os.getPriority(tid) + increment);
    os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}
