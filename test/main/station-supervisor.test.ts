import { afterEach, describe, expect, it, vi } from 'vitest';
import { StationSupervisor } from '../../main/station-supervisor.js';
import type { StationConfig, StationHandle } from '../../main/types.js';

/** A fake startStation: each call gives a handle whose `closed` the test can settle (a crash). */
function fakeStation(options: { failFirst?: number; port?: number } = {}) {
  const calls: StationConfig[] = [];
  const handles: Array<StationHandle & { crash(): void; closes: number }> = [];
  let failures = options.failFirst ?? 0;
  const start = async (config: StationConfig) => {
    calls.push(config);
    if (failures-- > 0) throw new Error('EADDRINUSE');
    let crash!: () => void;
    const closed = new Promise<void>((r) => (crash = r));
    const port = config.port || options.port || 40000 + calls.length;
    const handle = {
      url: `http://127.0.0.1:${port}`,
      closes: 0,
      closed,
      crash,
      async close() {
        handle.closes += 1;
      },
    };
    handles.push(handle);
    return handle;
  };
  return { start, calls, handles };
}

const fast = { backoffMs: [1], probeIntervalMs: 0 };

describe('station supervisor', () => {
  afterEach(() => vi.useRealTimers());

  it('starts the station on loopback and reports running', async () => {
    const st = fakeStation({ port: 41000 });
    const sup = new StationSupervisor({ ...fast, startStation: st.start, config: { dataDir: '/d', host: '127.0.0.1', port: 0 } });
    const seen: string[] = [];
    sup.onStatus((s) => seen.push(s.state));
    expect(await sup.start()).toBe('http://127.0.0.1:41000');
    expect(st.calls[0]).toEqual({ dataDir: '/d', host: '127.0.0.1', port: 0 });
    expect(sup.status()).toMatchObject({ state: 'running', url: 'http://127.0.0.1:41000', restarts: 0 });
    expect(seen).toEqual(['starting', 'running']);
    await sup.stop();
  });

  it('restarts a station that dies, on the same port', async () => {
    const st = fakeStation({ port: 41001 });
    const sup = new StationSupervisor({ ...fast, startStation: st.start, config: { dataDir: '/d', host: '127.0.0.1', port: 0 } });
    await sup.start();
    st.handles[0]!.crash();
    await vi.waitFor(() => expect(st.calls.length).toBe(2));
    expect(st.calls[1]!.port).toBe(41001);
    expect(st.handles[0]!.closes).toBe(1);
    expect(sup.status()).toMatchObject({ state: 'running', restarts: 1, lastError: 'the station stopped' });
    await sup.stop();
  });

  it('retries a failing start with back-off, then runs', async () => {
    const st = fakeStation({ failFirst: 2 });
    const sup = new StationSupervisor({ ...fast, startStation: st.start, config: { dataDir: '/d', host: '127.0.0.1', port: 0 } });
    await sup.start();
    expect(st.calls.length).toBe(3);
    expect(sup.status().state).toBe('running');
    await sup.stop();
  });

  it('gives up after maxAttempts and reports failed', async () => {
    const st = fakeStation({ failFirst: 99 });
    const sup = new StationSupervisor({ ...fast, maxAttempts: 3, startStation: st.start, config: { dataDir: '/d', host: '127.0.0.1', port: 0 } });
    await expect(sup.start()).rejects.toThrow(/could not start: EADDRINUSE/);
    expect(st.calls.length).toBe(3);
    expect(sup.status()).toMatchObject({ state: 'failed', url: null, lastError: 'EADDRINUSE' });
  });

  it('restarts after consecutive failed probes, not after one', async () => {
    const st = fakeStation({ port: 41002 });
    let alive = true;
    const fetch = vi.fn(async () => {
      if (!alive) throw new TypeError('fetch failed');
      return new Response('', { status: 404 });
    });
    const sup = new StationSupervisor({
      ...fast,
      fetch: fetch as unknown as typeof globalThis.fetch,
      failuresBeforeRestart: 2,
      startStation: st.start,
      config: { dataDir: '/d', host: '127.0.0.1', port: 0 },
    });
    await sup.start();
    expect(await sup.probe()).toBe(true);
    alive = false;
    expect(await sup.probe()).toBe(false);
    expect(st.calls.length).toBe(1);
    alive = true;
    expect(await sup.probe()).toBe(true);
    alive = false;
    await sup.probe();
    await sup.probe();
    expect(st.calls.length).toBe(2);
    expect(sup.status().restarts).toBe(1);
    await sup.stop();
  });

  it('probes on a timer', async () => {
    vi.useFakeTimers();
    const st = fakeStation({ port: 41003 });
    const fetch = vi.fn(async () => new Response('ok'));
    const sup = new StationSupervisor({
      backoffMs: [1],
      probeIntervalMs: 1000,
      fetch: fetch as unknown as typeof globalThis.fetch,
      startStation: st.start,
      config: { dataDir: '/d', host: '127.0.0.1', port: 0 },
    });
    await sup.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toBe('http://127.0.0.1:41003/');
    await sup.stop();
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('stops cleanly: closes the station once, does not restart it, is idempotent', async () => {
    const st = fakeStation({ port: 41004 });
    const sup = new StationSupervisor({ ...fast, startStation: st.start, config: { dataDir: '/d', host: '127.0.0.1', port: 0 } });
    await sup.start();
    await sup.stop();
    st.handles[0]!.crash();
    await new Promise((r) => setTimeout(r, 10));
    await sup.stop();
    expect(st.handles[0]!.closes).toBe(1);
    expect(st.calls.length).toBe(1);
    expect(sup.status()).toMatchObject({ state: 'stopped', url: null });
  });
});
