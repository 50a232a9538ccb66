import type { StartStation, StationConfig, StationHandle, StationState, StationStatus } from './types.js';

/** Options of the station supervisor. */
export interface SupervisorOptions {
  startStation: StartStation;
  config: StationConfig;
  /** Used for the liveness probe; defaults to global fetch. */
  fetch?: typeof fetch;
  /** Path probed on the station; any HTTP answer (even 404) means alive. Default `/`. */
  probePath?: string;
  /** Probe period in ms; 0 disables probing. Default 5000. */
  probeIntervalMs?: number;
  /** Probe time-out in ms. Default 3000. */
  probeTimeoutMs?: number;
  /** Failed probes in a row before a restart. Default 3. */
  failuresBeforeRestart?: number;
  /** Waits between start attempts (ms), the last one repeating. Default [500, 1000, 2000, 5000]. */
  backoffMs?: number[];
  /** Start attempts in a row before giving up (state `failed`). Default 10. */
  maxAttempts?: number;
  log?: (message: string) => void;
}

/**
 * Runs the station service in-process and keeps it alive: starts it, probes it, and restarts it
 * (same port, so the kiosk page keeps its origin and session) when it stops on its own or stops
 * answering. `stop()` closes it for good.
 */
export class StationSupervisor {
  private readonly opts: Required<Omit<SupervisorOptions, 'log'>> & { log: (m: string) => void };
  private handle: StationHandle | null = null;
  private current: StationStatus;
  private readonly listeners = new Set<(s: StationStatus) => void>();
  private probeTimer: ReturnType<typeof setInterval> | undefined;
  private failures = 0;
  private stopping = false;
  private restarting: Promise<void> | null = null;
  private port: number;

  constructor(options: SupervisorOptions) {
    this.opts = {
      fetch: globalThis.fetch.bind(globalThis),
      probePath: '/',
      probeIntervalMs: 5000,
      probeTimeoutMs: 3000,
      failuresBeforeRestart: 3,
      backoffMs: [500, 1000, 2000, 5000],
      maxAttempts: 10,
      log: () => undefined,
      ...options,
    };
    this.port = options.config.port;
    this.current = { state: 'stopped', url: null, restarts: 0, lastError: null, since: new Date().toISOString() };
  }

  /** The current status (a copy). */
  status(): StationStatus {
    return { ...this.current };
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: (status: StationStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the service (retrying with back-off) and resolves with its URL. Rejects when every attempt failed. */
  async start(): Promise<string> {
    this.stopping = false;
    this.set({ state: 'starting' });
    await this.launch();
    if (this.opts.probeIntervalMs > 0 && !this.probeTimer) {
      this.probeTimer = setInterval(() => void this.probe(), this.opts.probeIntervalMs);
      (this.probeTimer as { unref?: () => void }).unref?.();
    }
    return this.current.url!;
  }

  /** Probes the service once; after `failuresBeforeRestart` failures in a row, restarts it. */
  async probe(): Promise<boolean> {
    const url = this.handle?.url;
    if (!url || this.stopping || this.restarting) return false;
    const ok = await this.opts
      .fetch(new URL(this.opts.probePath, url), { signal: AbortSignal.timeout(this.opts.probeTimeoutMs) })
      .then(() => true, () => false);
    if (ok) {
      this.failures = 0;
      return true;
    }
    this.failures += 1;
    this.opts.log(`station probe failed (${this.failures}/${this.opts.failuresBeforeRestart})`);
    if (this.failures >= this.opts.failuresBeforeRestart) await this.restart('the station stopped answering');
    return false;
  }

  /** Closes the current service and starts a new one on the same port. Concurrent calls share one restart. */
  restart(reason: string): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.restarting ??= (async () => {
      this.opts.log(`restarting station: ${reason}`);
      this.set({ state: 'restarting', lastError: reason, restarts: this.current.restarts + 1 });
      const old = this.handle;
      this.handle = null;
      await old?.close().catch(() => undefined);
      await this.launch().catch(() => undefined);
    })().finally(() => {
      this.restarting = null;
      this.failures = 0;
    });
    return this.restarting;
  }

  /** Stops probing and closes the service. Idempotent. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = undefined;
    await this.restarting;
    const old = this.handle;
    this.handle = null;
    await old?.close().catch((e: unknown) => this.opts.log(`station close failed: ${String(e)}`));
    this.set({ state: 'stopped', url: null });
  }

  private async launch(): Promise<void> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.opts.maxAttempts && !this.stopping; attempt++) {
      if (attempt > 0) await sleep(this.opts.backoffMs[Math.min(attempt - 1, this.opts.backoffMs.length - 1)]!);
      try {
        const handle = await this.opts.startStation({ ...this.opts.config, port: this.port });
        if (this.stopping) {
          await handle.close();
          return;
        }
        this.handle = handle;
        this.port = Number(new URL(handle.url).port) || this.port;
        this.watch(handle);
        this.set({ state: 'running', url: handle.url });
        return;
      } catch (e) {
        lastError = e;
        this.opts.log(`station start failed (attempt ${attempt + 1}): ${String(e)}`);
        this.set({ lastError: errorText(e) });
      }
    }
    if (this.stopping) return;
    this.set({ state: 'failed', url: null, lastError: errorText(lastError) });
    throw new Error(`The station could not start: ${errorText(lastError)}`);
  }

  private watch(handle: StationHandle): void {
    void handle.closed?.then(
      () => this.onExit(handle, 'the station stopped'),
      (e: unknown) => this.onExit(handle, errorText(e)),
    );
  }

  private onExit(handle: StationHandle, reason: string): void {
    if (this.handle === handle && !this.stopping) void this.restart(reason);
  }

  private set(patch: Partial<StationStatus>): void {
    this.current = { ...this.current, ...patch, since: patch.state ? new Date().toISOString() : this.current.since };
    for (const listener of this.listeners) listener(this.status());
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
