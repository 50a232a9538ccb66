/** The one worker pool (src/runtime/worker-pool.ts): dispatch, errors across threads, crash handling. */
import { describe, expect, it } from 'vitest';
import { WorkerPool, type SerialisedError } from '../../src/runtime/worker-pool.js';
import type { EchoRequest } from './fixtures/echo-worker.js';

class Unavailable extends Error {}
class Revived extends Error {
  constructor(readonly e: SerialisedError) {
    super(e.message);
  }
}

const pool = (respawn: boolean, size = 2) =>
  new WorkerPool<EchoRequest, unknown>({
    module: new URL('./fixtures/echo-worker.js', import.meta.url),
    size,
    data: { tag: 't' },
    respawn,
    label: 'test worker',
    unavailable: (m) => new Unavailable(m),
    revive: (e) => new Revived(e),
  });

describe('worker pool', () => {
  it('serves requests on every worker with the data given, and revives thrown errors with code and details', async () => {
    const p = pool(true);
    await p.ready();
    expect(p.size).toBe(2);
    const results = (await Promise.all(Array.from({ length: 8 }, (_, i) => p.run({ kind: 'echo', value: i })))) as Array<{ tag: string; value: number; threadId: number }>;
    expect(results.map((r) => r.value)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(results.every((r) => r.tag === 't')).toBe(true);
    const error = await p.run({ kind: 'throw' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Revived);
    expect((error as Revived).e).toMatchObject({ code: 'REFUSED', message: 'refused', details: { why: 'test' } });
    await p.close();
    await expect(p.run({ kind: 'echo', value: 1 })).rejects.toBeInstanceOf(Unavailable);
  }, 60_000);

  it('replaces a worker that dies when respawn is on: only its request fails', async () => {
    const p = pool(true);
    await p.ready();
    await expect(p.run({ kind: 'crash' })).rejects.toBeInstanceOf(Unavailable);
    expect(await p.run({ kind: 'echo', value: 3 })).toMatchObject({ value: 6 });
    for (let i = 0; i < 100 && p.size < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(p.size).toBe(2);
    await p.close();
  }, 60_000);

  it('addresses stateful workers one by one, and fails as a whole when one dies without respawn', async () => {
    const p = pool(false);
    p.post(0, { kind: 'remember', value: 1 });
    p.post(1, { kind: 'remember', value: 2 });
    p.post(0, { kind: 'remember', value: 3 });
    expect(await p.call(0, { kind: 'recall' })).toMatchObject({ memory: [1, 3] });
    expect(await p.call(1, { kind: 'recall' })).toMatchObject({ memory: [2] });
    await expect(p.call(1, { kind: 'crash' })).rejects.toBeInstanceOf(Unavailable);
    expect(p.failure).toMatch(/test worker failed/);
    await expect(p.call(0, { kind: 'recall' })).rejects.toBeInstanceOf(Unavailable);
    await p.close();
  }, 60_000);
});
