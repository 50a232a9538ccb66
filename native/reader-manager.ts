import { EventEmitter } from 'node:events';
import {
  ReaderError,
  type CaptureOptions,
  type FingerImage,
  type FingerprintReader,
  type ReaderEvent,
  type ReaderInfo,
  type ReaderProvider,
} from './reader.js';

/** Options of the reader manager. */
export interface ReaderManagerOptions {
  providers: ReaderProvider[];
  /** Hot-plug scan period in milliseconds; 0 disables polling (call `scan()` yourself). Default 1000. */
  pollMs?: number;
}

/**
 * Owns every attached reader: polls the providers for hot-plug (attach/detach), opens readers
 * lazily on first capture, and emits one `event` stream of ReaderEvent for the kiosk.
 */
export class ReaderManager {
  private readonly providers: ReaderProvider[];
  private readonly pollMs: number;
  private readonly readers = new Map<string, FingerprintReader>();
  private readonly emitter = new EventEmitter();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;

  constructor(options: ReaderManagerOptions) {
    this.providers = options.providers;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Scans once, then keeps scanning every `pollMs`. */
  async start(): Promise<void> {
    await this.scan();
    if (this.pollMs > 0 && !this.timer) {
      this.timer = setInterval(() => void this.scan().catch(() => undefined), this.pollMs);
      this.timer.unref();
    }
  }

  /** Diffs the providers' readers against the attached ones and emits attached/detached. */
  scan(): Promise<void> {
    this.scanning ??= this.doScan().finally(() => {
      this.scanning = undefined;
    });
    return this.scanning;
  }

  private async doScan(): Promise<void> {
    const seen = new Set<string>();
    for (const provider of this.providers) {
      for (const found of await provider.scan()) {
        seen.add(found.info.id);
        if (!this.readers.has(found.info.id)) {
          this.readers.set(found.info.id, found.create());
          this.emit({ type: 'attached', reader: found.info });
        }
      }
    }
    for (const [id, reader] of this.readers) {
      if (seen.has(id)) continue;
      this.readers.delete(id);
      await reader.close().catch(() => undefined);
      this.emit({ type: 'detached', readerId: id });
    }
  }

  /** The readers attached now. */
  list(): ReaderInfo[] {
    return [...this.readers.values()].map((r) => r.info);
  }

  /** Captures one image from a reader. Throws ReaderError (NOT_FOUND when the id is not attached). */
  async capture(readerId: string, options?: CaptureOptions): Promise<FingerImage> {
    const reader = this.readers.get(readerId);
    if (!reader) throw new ReaderError('NOT_FOUND', `No reader ${readerId}`);
    this.emit({ type: 'capture-started', readerId });
    try {
      await reader.open();
      const image = await reader.capture(options);
      this.emit({ type: 'captured', readerId, capturedAt: image.capturedAt });
      return image;
    } catch (e) {
      const err = e instanceof ReaderError ? e : new ReaderError('IO', (e as Error).message);
      this.emit({ type: 'error', readerId, code: err.code, message: err.message });
      throw err;
    }
  }

  /** Subscribes to reader events; returns the unsubscribe function. */
  onEvent(listener: (event: ReaderEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** Stops polling and closes every reader. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const readers = [...this.readers.values()];
    this.readers.clear();
    await Promise.all(readers.map((r) => r.close().catch(() => undefined)));
  }

  private emit(event: ReaderEvent): void {
    this.emitter.emit('event', event);
  }
}
