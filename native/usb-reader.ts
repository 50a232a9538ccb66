/**
 * USB fingerprint readers behind the FingerprintReader interface: a driver (native/drivers) over a
 * UsbTransport. Each capture is one device session: open the
 * transport, claim, run the driver's init and capture, release. Between captures the device is
 * free. Errors come out as ReaderError with a stable code (see reader.ts).
 */
import { encodePng } from './replay.js';
import { CaptureRetryError, DriverProtocolError, type DriverDefinition } from './drivers/index.js';
import { ReaderError, type CaptureOptions, type FingerImage, type FingerprintReader, type ReaderInfo } from './reader.js';
import { UsbTransferError, type UsbTransport } from './usb/transport.js';

/** Where the udev rule lives and what it fixes; quoted in PERMISSION errors. */
export const UDEV_HINT =
  'install the udev rule native/udev/70-biostation-readers.rules into /etc/udev/rules.d/ (the Linux packages do), then replug the reader (see native/README.md)';

export interface UsbReaderOptions {
  info: ReaderInfo;
  driver: DriverDefinition;
  /** A transport for one session; called once per capture (and by `open`). */
  transport: () => UsbTransport;
}

/** Maps driver and transport failures to ReaderError. `timedOut`/`cancelled` say which of our aborts fired. */
export function toReaderError(e: unknown, why: { timedOut?: boolean; cancelled?: boolean; detached?: boolean } = {}): ReaderError {
  if (e instanceof ReaderError) return e;
  if (why.detached) return new ReaderError('DISCONNECTED', 'reader unplugged during the capture');
  if (why.timedOut) return new ReaderError('TIMEOUT', 'no finger was placed in time');
  if (why.cancelled) return new ReaderError('CANCELLED', 'capture cancelled');
  if (e instanceof CaptureRetryError) return new ReaderError('RETRY', e.message);
  if (e instanceof DriverProtocolError) return new ReaderError('PROTOCOL', e.message);
  if (e instanceof UsbTransferError) {
    switch (e.code) {
      case 'NO_DEVICE':
        return new ReaderError('DISCONNECTED', `reader unplugged: ${e.message}`);
      case 'ACCESS':
        return new ReaderError('PERMISSION', `no permission to use the reader (${e.message}): ${UDEV_HINT}`);
      case 'BUSY':
        return new ReaderError('BUSY', `reader busy: another program holds it (${e.message})`);
      case 'TIMEOUT':
        return new ReaderError('TIMEOUT', `the reader stopped answering: ${e.message}`);
      case 'CANCELLED':
        return new ReaderError('CANCELLED', e.message);
      case 'REPLAY_MISMATCH':
        return new ReaderError('PROTOCOL', e.message);
      default:
        return new ReaderError('IO', e.message);
    }
  }
  return new ReaderError('IO', e instanceof Error ? e.message : String(e));
}

/** One USB (or replayed) reader. */
export class UsbFingerprintReader implements FingerprintReader {
  readonly info: ReaderInfo;
  private readonly driver: DriverDefinition;
  private readonly newTransport: () => UsbTransport;
  private running: { abort: AbortController; detached: boolean } | undefined;
  private detached = false;

  constructor(options: UsbReaderOptions) {
    this.info = options.info;
    this.driver = options.driver;
    this.newTransport = options.transport;
  }

  /** Checks that the device can be opened (permission, presence) and closes it again. */
  async open(): Promise<void> {
    if (this.detached) throw new ReaderError('DISCONNECTED', `reader ${this.info.id} was unplugged`);
    const t = this.newTransport();
    try {
      await t.open();
    } catch (e) {
      throw toReaderError(e);
    } finally {
      await t.close();
    }
  }

  /** One capture: init, wait for the finger (up to `timeoutMs`, default 30 s), read and encode the image as PNG. */
  async capture(options: CaptureOptions = {}): Promise<FingerImage> {
    if (this.detached) throw new ReaderError('DISCONNECTED', `reader ${this.info.id} was unplugged`);
    if (this.running) throw new ReaderError('BUSY', `reader busy: a capture is already running on ${this.info.id}`);
    if (options.signal?.aborted) throw new ReaderError('CANCELLED', 'capture cancelled');
    const abort = new AbortController();
    const run = { abort, detached: false };
    this.running = run;
    let timedOut = false;
    let cancelled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, options.timeoutMs ?? 30_000);
    const onCancel = () => {
      cancelled = true;
      abort.abort();
    };
    options.signal?.addEventListener('abort', onCancel, { once: true });
    const transport = this.newTransport();
    const session = this.driver.create(transport);
    try {
      await transport.open();
      await session.open();
      const image = await session.capture({ signal: abort.signal, fingerOn: options.onFingerOn, fingerOff: options.onFingerOff });
      const bytes = await encodePng(image);
      return {
        readerId: this.info.id,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        mime: 'image/png',
        dpi: image.dpi,
        capturedAt: new Date().toISOString(),
        widthPx: image.widthPx,
        heightPx: image.heightPx,
      };
    } catch (e) {
      throw toReaderError(e, { timedOut, cancelled, detached: run.detached });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCancel);
      await session.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      this.running = undefined;
    }
  }

  /** The device is gone: a running capture fails with DISCONNECTED, later calls too. */
  markDetached(): void {
    this.detached = true;
    if (this.running) {
      this.running.detached = true;
      this.running.abort.abort();
    }
  }

  /** Nothing is held between captures; a running capture is cancelled. */
  async close(): Promise<void> {
    this.running?.abort.abort();
  }
}
