/** The extraction pools' common part (src/runtime/extractor-pool.ts), on the echo test worker. */
import { describe, expect, it } from 'vitest';
import { ExtractorPool } from '../../src/runtime/extractor-pool.js';
import type { EchoRequest } from './fixtures/echo-worker.js';

class Unavailable extends Error {}

class EchoPool extends ExtractorPool<EchoRequest, { value?: number; threadId: number }> {
  static async start(module: URL, size: number): Promise<EchoPool> {
    return new EchoPool(await ExtractorPool.startWorkers({
      module, size, data: { tag: 't' }, label: 'echo worker', unavailable: (m) => new Unavailable(m), revive: (e) => new Error(e.message),
    }));
  }

  run(q: EchoRequest) {
    return this.workers.run(q);
  }
}

const echo = new URL('./fixtures/echo-worker.js', import.meta.url);

describe('extractor pool', () => {
  it('starts every worker, replaces one that dies (its request fails with `unavailable`), and refuses work once closed', async () => {
    const p = await EchoPool.start(echo, 2);
    expect(p.size).toBe(2);
    expect(await p.run({ kind: 'echo', value: 3 })).toMatchObject({ value: 6 });
    await expect(p.run({ kind: 'crash' })).rejects.toBeInstanceOf(Unavailable);
    expect(await p.run({ kind: 'echo', value: 4 })).toMatchObject({ value: 8 }); // served: respawn is on
    await p.close();
    expect(p.size).toBe(0);
    await expect(p.run({ kind: 'echo', value: 1 })).rejects.toBeInstanceOf(Unavailable);
  }, 60_000);

  it('a worker that cannot start fails the start with `unavailable`, naming the workers', async () => {
    const start = EchoPool.start(new URL('./fixtures/no-such-worker.js', import.meta.url), 1);
    await expect(start).rejects.toBeInstanceOf(Unavailable);
    await expect(start).rejects.toThrow(/^The echo workers could not start: /);
  }, 60_000);
});
