/**
 * The fingerprint reader interface shared by every driver (USB drivers, the file-backed virtual
 * reader) and by its two consumers: Electron main (IPC to the kiosk) and the headless reader bridge
 * (HTTP + Server-Sent Events on loopback). Nothing here knows about HTTP or Electron.
 */

/** What a consumer may know about an attached reader. */
export interface ReaderInfo {
  /** Stable id while the reader stays attached, e.g. `virtual:left-hand` or `usb:1c7a:0603:3-1`. */
  id: string;
  /** Human-readable name shown to the clerk. */
  name: string;
  kind: 'virtual' | 'usb';
  /** Resolution of the images the reader produces, in dots per inch. */
  dpi: number;
}

/** One image taken by a reader. */
export interface FingerImage {
  readerId: string;
  /** Encoded image bytes exactly as the reader (or file) produced them. */
  bytes: Uint8Array;
  /** MIME type of `bytes`: image/png, image/jpeg, image/bmp, image/tiff or image/x-portable-graymap. */
  mime: string;
  dpi: number;
  /** ISO-8601 time of the capture. */
  capturedAt: string;
}

/** Options of one capture. */
export interface CaptureOptions {
  /** Give up after this many milliseconds (ReaderError `TIMEOUT`). Default 30 000. */
  timeoutMs?: number;
  /** Cancels a capture waiting for a finger (ReaderError `CANCELLED`). */
  signal?: AbortSignal;
}

/** Events a reader manager emits; the kiosk shows them live. */
export type ReaderEvent =
  | { type: 'attached'; reader: ReaderInfo }
  | { type: 'detached'; readerId: string }
  | { type: 'capture-started'; readerId: string }
  | { type: 'captured'; readerId: string; capturedAt: string }
  | { type: 'error'; readerId: string; code: ReaderErrorCode; message: string };

export type ReaderErrorCode = 'NOT_FOUND' | 'BUSY' | 'TIMEOUT' | 'CANCELLED' | 'NO_IMAGE' | 'IO';

/** A reader failure with a stable code. */
export class ReaderError extends Error {
  readonly code: ReaderErrorCode;

  constructor(code: ReaderErrorCode, message: string) {
    super(message);
    this.name = 'ReaderError';
    this.code = code;
  }
}

/** One physical or virtual reader. `open` before `capture`; `close` releases the device. */
export interface FingerprintReader {
  readonly info: ReaderInfo;
  /** Claims the device. Idempotent. */
  open(): Promise<void>;
  /** Waits for a finger and returns its image. Throws ReaderError. One capture at a time. */
  capture(options?: CaptureOptions): Promise<FingerImage>;
  /** Releases the device. Idempotent. */
  close(): Promise<void>;
}

/**
 * A source of readers that the manager polls for hot-plug: each scan returns the ids currently
 * present and a factory for readers it has not seen yet.
 */
export interface ReaderProvider {
  /** Lists the readers present now. Must not open them. */
  scan(): Promise<Array<{ info: ReaderInfo; create(): FingerprintReader }>>;
}
