/**
 * Native image threads (libvips's pool, driven by sharp from libuv's process-wide threadpool) run below the
 * main thread like the worker threads (issue #18: they decoded the fingerprint workers' images level with it).
 */
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { WORKER_NICE_INCREMENT, lowerNativeImageThreads } from '../../src/runtime/thread-priority.js';
import { WorkerPool } from '../../src/runtime/worker-pool.js';

const libvipsThreads = (): number[] =>
  readdirSync('/proc/self/task').map(Number).filter((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'libvips worker';
    } catch {
      return false;
    }
  });

describe.skipIf(process.platform !== 'linux')('lowerNativeImageThreads (Linux)', () => {
  it('lowers every libvips thread to the workers\' priority, and leaves the main thread', async () => {
    await sharp({ create: { width: 800, height: 800, channels: 3, background: '#808080' } }).png().toBuffer()
      .then((png) => sharp(png).resize(400, 400).raw().toBuffer());
    const threads = libvipsThreads();
    expect(threads.length).toBeGreaterThan(0);
    const main = os.getPriority(process.pid);
    const target = Math.min(19, main + WORKER_NICE_INCREMENT);
    lowerNativeImageThreads();
    for (const tid of libvipsThreads()) expect(os.getPriority(tid), `thread ${tid}`).toBe(target);
    expect(os.getPriority(process.pid)).toBe(main);
    expect(lowerNativeImageThreads()).toBe(0); // nothing left to lower
  });
});

describe.skipIf(process.platform !== 'linux')('worker threads (Linux)', () => {
  it('run WORKER_NICE_INCREMENT below the main thread, and so do the workers they start, not one level more per generation', async () => {
    const pool = new WorkerPool<null, number[]>({
      module: new URL('./fixtures/priority-worker.js', import.meta.url), size: 1, data: { depth: 2 }, respawn: false,
      label: 'priority test worker', unavailable: (m) => new Error(m), revive: (e) => new Error(e.message),
    });
    try {
      await pool.ready();
      const target = Math.min(19, os.getPriority(process.pid) + WORKER_NICE_INCREMENT);
      expect(await pool.run(null)).toEqual([target, target, target]);
    } finally {
      await pool.close();
    }
  });
});
