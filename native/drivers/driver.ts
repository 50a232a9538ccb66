/**
 * What every USB fingerprint driver provides: a definition (which devices, sensor type, image size
 * and resolution) and, per opened device, `open` / `capture` / `close` over a UsbTransport.
 * Drivers are protocol code only: bytes in and out through the transport, a grayscale image out.
 */
import { UsbTransferError, type UsbTransport } from '../usb/transport.js';

/** An 8-bit grayscale image, rows top-down, ridges dark on a light background. */
export interface GrayImage {
  widthPx: number;
  heightPx: number;
  /** `widthPx * heightPx` bytes, row-major. */
  pixels: Uint8Array;
  /** Resolution in dots per inch (the sensor's, or the nominal one the driver states). */
  dpi: number;
}

/** Callbacks and cancellation of one capture. */
export interface CaptureContext {
  /** Aborting stops the capture at the next transfer (the transfer is cancelled). */
  signal?: AbortSignal;
  /** The sensor reports a finger (press sensors) or the start of a swipe. */
  fingerOn?(): void;
  /** The sensor reports the finger lifted (only drivers whose protocol reports it). */
  fingerOff?(): void;
}

/** One opened device. Methods reject with UsbTransferError (transport) or DriverProtocolError. */
export interface FingerprintDriver {
  /** Claims the interface and runs the device's init sequence. */
  open(): Promise<void>;
  /** Waits for a finger, reads and assembles one image. One capture at a time. */
  capture(ctx?: CaptureContext): Promise<GrayImage>;
  /** Leaves the device idle and releases it (never rejects). */
  close(): Promise<void>;
}

export type SensorType = 'press' | 'swipe';

/** A supported device family. */
export interface DriverDefinition {
  /** Short id used in logs and the CLI, e.g. `nb1010`. */
  id: string;
  /** Human-readable model name. */
  name: string;
  /** USB ids this driver handles. */
  devices: ReadonlyArray<{ vendorId: number; productId: number }>;
  sensor: SensorType;
  /** Image size in pixels; `heightPx` is 0 where it varies with the swipe. */
  widthPx: number;
  heightPx: number;
  dpi: number;
  create(transport: UsbTransport): FingerprintDriver;
}

/** The device answered something the protocol does not allow (bad header, CRC, length). */
export class DriverProtocolError extends Error {
  readonly code = 'PROTOCOL' as const;

  constructor(driver: string, message: string) {
    super(`${driver}: ${message}`);
    this.name = 'DriverProtocolError';
  }
}

/** The sensor rejected the scan (swipe too short, finger off-centre): the user should try again. */
export class CaptureRetryError extends Error {
  readonly code = 'RETRY' as const;

  constructor(
    driver: string,
    readonly reason: 'TOO_SHORT' | 'CENTER_FINGER' | 'REMOVE_FINGER' | 'GENERAL',
    message: string,
  ) {
    super(`${driver}: ${message}`);
    this.name = 'CaptureRetryError';
  }
}

/** Resolves after `ms` milliseconds, or rejects with UsbTransferError `CANCELLED` when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new UsbTransferError('CANCELLED', 'capture cancelled'));
    if (signal?.aborted) return cancelled();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      cancelled();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Throws a DriverProtocolError unless `bytes` is exactly `length` long. */
export function expectLength(driver: string, bytes: Uint8Array, length: number, what: string): void {
  if (bytes.length !== length) throw new DriverProtocolError(driver, `${what}: ${bytes.length} bytes, expected ${length}`);
}
