import { BiostationError } from './errors.js';

/**
 * An engine loaded once, in the background from station start, shared by every request.
 * `get()` waits for loading; a failed or disabled engine gives ENGINE_UNAVAILABLE (503).
 */
export class EngineSlot<E> {
  private loading?: Promise<E>;
  private failure?: string;
  private ready = false;

  constructor(
    readonly name: string,
    private readonly factory: (() => Promise<E>) | undefined,
  ) {}

  /** Starts loading now (idempotent). Errors are kept and reported by `get()` and `status`. */
  start(): void {
    if (this.loading || !this.factory) return;
    this.loading = this.factory().then(
      (engine) => {
        this.ready = true;
        return engine;
      },
      (e: unknown) => {
        this.failure = e instanceof Error ? e.message : String(e);
        throw new BiostationError('ENGINE_UNAVAILABLE', `The ${this.name} engine is not available: ${this.failure}`);
      },
    );
    this.loading.catch(() => undefined);
  }

  async get(): Promise<E> {
    if (!this.factory) throw new BiostationError('ENGINE_UNAVAILABLE', `The ${this.name} engine is disabled on this station`);
    this.start();
    return this.loading!;
  }

  /** The resolved engine if loading has finished, else undefined (for shutdown). */
  async settled(): Promise<E | undefined> {
    if (!this.loading) return undefined;
    return this.loading.catch(() => undefined);
  }

  get status(): 'disabled' | 'loading' | 'ready' | 'failed' {
    if (!this.factory) return 'disabled';
    if (this.failure) return 'failed';
    return this.ready ? 'ready' : 'loading';
  }

  get failureReason(): string | undefined {
    return this.failure;
  }
}
