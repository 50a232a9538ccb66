/** The one worker pool (src/runtime/worker-pool.ts): dispatch, errors across threads, crash handling. */
import { describe, expect, it } from 'vitest';
import { WorkerPool, type SerialisedError, type WorkerPoolOptions } from '../../src/runtime/worker-pool.js';
import type { EchoRequest } from './fixtures/echo-worker.js';

class Unavailable extends Error {}
class Revived extends Error {
  constructor(readonly e: SerialisedError) {
    super(e.message);
  }
}

class OverBudget extends Error {}
class Lost extends Error {}

const pool = (respawn: boolean, size = 2, extra: Partial<WorkerPoolOptions> = {}) =>
  new WorkerPool<EchoRequest, unknown>({
    ...extra,
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

  it('fails a run over its time budget at once and replaces the worker (stop message, then terminate for a busy one); the next run is served', async () => {
    const p = pool(true, 1, { overBudget: (ms) => new OverBudget(`over ${ms} ms`), stopGraceMs: 300 });
    await p.ready();
    const first = (await p.run({ kind: 'echo', value: 1 })) as { threadId: number };
    // A 10-minute spin: refused only if the budget cuts it off (past the test's 60 s otherwise); no duration is asserted.
    await expect(p.run({ kind: 'spin', ms: 600_000 }, { timeMs: 200 })).rejects.toThrow(OverBudget);
    expect(p.recycled).toBe(1);
    const next = (await p.run({ kind: 'echo', value: 2 })) as { threadId: number; value: number };
    expect(next.value).toBe(4);
    expect(next.threadId).not.toBe(first.threadId);
    await expect(p.run({ kind: 'echo', value: 1 }, { timeMs: 0 })).rejects.toThrow(OverBudget);
    const timed = await p.runTimed({ kind: 'spin', ms: 50 }, { timeMs: 5_000 });
    expect(timed.ranMs).toBeGreaterThanOrEqual(50);
    await p.close();
  }, 60_000);

  it('replaces a worker that keeps more memory than recycleAboveMb after a request, and reports a worker lost mid-request with `lost`', async () => {
    const p = pool(true, 1, { recycleAboveMb: 32, lost: (m) => new Lost(m) });
    await p.ready();
    const a = (await p.run({ kind: 'hold', mb: 8 })) as { threadId: number };
    expect(p.recycled).toBe(0);
    const b = (await p.run({ kind: 'hold', mb: 40 })) as { threadId: number };
    expect(b.threadId).toBe(a.threadId); // answered by the same worker, which is then replaced
    expect(p.recycled).toBe(1);
    const c = (await p.run({ kind: 'echo', value: 1 })) as { threadId: number };
    expect(c.threadId).not.toBe(a.threadId);
    await expect(p.run({ kind: 'crash' })).rejects.toThrow(Lost);
    await p.close();
  }, 60_000);
});
