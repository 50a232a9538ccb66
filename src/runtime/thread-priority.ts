import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
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
 * Lowers the scheduling priority of the calling worker thread to `increment` above the main thread's
 * (never above 19; a thread already that low or lower is left). A worker started by a lowered worker
 * inherits its parent's priority and stays there: one level below the main thread for all workers, not
 * one more level per generation. On
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
    const nice = Math.min(19, os.getPriority(process.pid) + increment);
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}

/** Names (Linux comm) of native threads that only do image work for the workers: libvips's pool (sharp). */
const NATIVE_IMAGE_THREADS = new Set(['libvips worker']);

/**
 * Lowers the native image threads of this process (libvips's pool, which sharp drives from libuv's
 * threadpool: both are process-wide and start at the main thread's priority, so the image decoding the
 * fingerprint workers ask for ran level with the main thread, issue #18) to WORKER_NICE_INCREMENT above
 * the main thread. Threads the pool starts later need another call: the worker side of the pool calls it
 * after every request (worker-serve.ts). Linux only (thread names and ids from /proc/self/task); a thread
 * that ends meanwhile is skipped.
 * @returns how many threads were lowered now
 */
export function lowerNativeImageThreads(increment = WORKER_NICE_INCREMENT): number {
  if (process.platform !== 'linux') return 0;
  let lowered = 0;
  try {
    const target = Math.min(19, os.getPriority(process.pid) + increment);
    for (const task of readdirSync('/proc/self/task')) {
      try {
        const tid = Number(task);
        if (!NATIVE_IMAGE_THREADS.has(readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim())) continue;
        if (os.getPriority(tid) >= target) continue;
        os.setPriority(tid, target);
        lowered++;
      } catch {
        // the thread ended, or the kernel refused: leave it
      }
    }
  } catch {
    // /proc unreadable: nothing lowered beyond what was
  }
  return lowered;
}
