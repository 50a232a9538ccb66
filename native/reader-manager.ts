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
 * Owns every attached reader: follows the providers' hot-plug (their `watch` notifications, e.g.
 * USB attach/detach, and a periodic scan), allows one capture at a time per reader and one owner
 * per claimed reader (others get BUSY "reader busy"), and emits one `event` stream of ReaderEvent
 * for the kiosk: attached, detached, capture-started, finger-on, finger-off, captured, error.
 * A reader unplugged during a capture fails it with DISCONNECTED; the manager keeps running.
 */
export class ReaderManager {
  private readonly providers: ReaderProvider[];
  private readonly pollMs: number;
  private readonly readers = new Map<string, FingerprintReader>();
  private readonly owners = new Map<string, string>();
  /** Running captures: reader id -> the abort of that capture. */
  private readonly capturing = new Map<string, AbortController>();
  private readonly emitter = new EventEmitter();
  private readonly unwatch: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private rescan = false;

  constructor(options: ReaderManagerOptions) {
    this.providers = options.providers;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Scans once, subscribes to hot-plug notifications, then keeps scanning every `pollMs`. */
  async start(): Promise<void> {
    if (this.unwatch.length === 0) {
      for (const provider of this.providers) {
        const off = provider.watch?.(() => void this.scan().catch(() => undefined));
        if (off) this.unwatch.push(off);
      }
    }
    await this.scan();
    if (this.pollMs > 0 && !this.timer) {
      this.timer = setInterval(() => void this.scan().catch(() => undefined), this.pollMs);
      this.timer.unref();
    }
  }

  /** Diffs the providers' readers against the attached ones and emits attached/detached. */
  scan(): Promise<void> {
    if (this.scanning) {
      // A change arrived during a scan: scan once more after it.
      this.rescan = true;
      return this.scanning;
    }
    this.scanning = this.doScan().finally(() => {
      this.scanning = undefined;
      if (this.rescan) {
        this.rescan = false;
        void this.scan().catch(() => undefined);
      }
    });
    return this.scanning;
  }

  private async doScan(): Promise<void> {
    const seen = new Set<string>();
    for (const provider of this.providers) {
      let found;
      try {
        found = await provider.scan();
      } catch {
        continue; // a failing provider (folder gone, libusb error) lists nothing; the others' readers stay
      }
      for (const item of found) {
        seen.add(item.info.id);
        if (!this.readers.has(item.info.id)) {
          this.readers.set(item.info.id, item.create());
          this.emit({ type: 'attached', reader: item.info });
        }
      }
    }
    for (const [id, reader] of this.readers) {
      if (seen.has(id)) continue;
      this.readers.delete(id);
      this.owners.delete(id);
      reader.markDetached?.();
      await reader.close().catch(() => undefined);
      this.emit({ type: 'detached', readerId: id });
    }
  }

  /** The readers attached now. */
  list(): ReaderInfo[] {
    return [...this.readers.values()].map((r) => r.info);
  }

  /**
   * Makes `owner` the only client allowed to capture from the reader until `release`.
   * Throws ReaderError NOT_FOUND, or BUSY when another owner holds it.
   */
  claim(readerId: string, owner: string): void {
    if (!this.readers.has(readerId)) throw new ReaderError('NOT_FOUND', `No reader ${readerId}`);
    const current = this.owners.get(readerId);
    if (current !== undefined && current !== owner) throw new ReaderError('BUSY', `reader busy: ${readerId} is in use by another client`);
    this.owners.set(readerId, owner);
  }

  /** Gives the reader up (no-op unless `owner` holds it). */
  release(readerId: string, owner: string): void {
    if (this.owners.get(readerId) === owner) this.owners.delete(readerId);
  }

  /**
   * Captures one image from a reader. Throws ReaderError: NOT_FOUND (not attached), BUSY (claimed by
   * another owner, or a capture already running), and the reader's own codes (TIMEOUT, CANCELLED,
   * DISCONNECTED, PERMISSION, PROTOCOL, RETRY, IO).
   */
  async capture(readerId: string, options: CaptureOptions = {}): Promise<FingerImage> {
    const reader = this.readers.get(readerId);
    if (!reader) throw new ReaderError('NOT_FOUND', `No reader ${readerId}`);
    const owner = this.owners.get(readerId);
    if (owner !== undefined && owner !== options.owner) throw new ReaderError('BUSY', `reader busy: ${readerId} is in use by another client`);
    if (this.capturing.has(readerId)) throw new ReaderError('BUSY', `reader busy: a capture is already running on ${readerId}`);
    const abort = new AbortController();
    const forwardAbort = () => abort.abort();
    if (options.signal?.aborted) abort.abort();
    options.signal?.addEventListener('abort', forwardAbort, { once: true });
    this.capturing.set(readerId, abort);
    this.emit({ type: 'capture-started', readerId });
    try {
      await reader.open();
      const image = await reader.capture({
        ...options,
        signal: abort.signal,
        onFingerOn: () => {
          this.emit({ type: 'finger-on', readerId });
          options.onFingerOn?.();
        },
        onFingerOff: () => {
          this.emit({ type: 'finger-off', readerId });
          options.onFingerOff?.();
        },
      });
      this.emit({ type: 'captured', readerId, capturedAt: image.capturedAt, widthPx: image.widthPx, heightPx: image.heightPx, dpi: image.dpi });
      return image;
    } catch (e) {
      const err = e instanceof ReaderError ? e : new ReaderError('IO', (e as Error).message);
      this.emit({ type: 'error', readerId, code: err.code, message: err.message });
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', forwardAbort);
      this.capturing.delete(readerId);
    }
  }

  /** Cancels the capture running on the reader (it fails with CANCELLED). Returns whether one was running. */
  cancel(readerId: string): boolean {
    const running = this.capturing.get(readerId);
    running?.abort();
    return running !== undefined;
  }

  /** Subscribes to reader events; returns the unsubscribe function. */
  onEvent(listener: (event: ReaderEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** Stops polling and hot-plug notifications and closes every reader. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const off of this.unwatch.splice(0)) off();
    const readers = [...this.readers.values()];
    this.readers.clear();
    this.owners.clear();
    await Promise.all(readers.map((r) => r.close().catch(() => undefined)));
  }

  private emit(event: ReaderEvent): void {
    this.emitter.emit('event', event);
  }
}
