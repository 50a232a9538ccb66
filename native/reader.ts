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
  /** `usb`: a device on the bus; `replay`: a recorded USB session played back; `virtual`: image files. */
  kind: 'virtual' | 'usb' | 'replay';
  /** Resolution of the images the reader produces, in dots per inch. */
  dpi: number;
  /** USB readers: the driver id (native/drivers), e.g. `nb1010`. */
  driver?: string;
  /** USB readers: `vendor:product` in hex, e.g. `298d:1010`. */
  usbId?: string;
}

/** One image taken by a reader. */
export interface FingerImage {
  readerId: string;
  /** Encoded image bytes exactly as the reader (or file) produced them. */
  bytes: Uint8Array;
  /** MIME type of `bytes`: image/png, image/jpeg, image/bmp, image/tiff or image/x-portable-graymap. */
  mime: string;
  dpi: number;
  /** Image size in pixels, when the reader knows it (USB readers). */
  widthPx?: number;
  heightPx?: number;
  /** ISO-8601 time of the capture. */
  capturedAt: string;
}

/** Options of one capture. */
export interface CaptureOptions {
  /** Give up after this many milliseconds (ReaderError `TIMEOUT`). Default 30 000. */
  timeoutMs?: number;
  /** Cancels a capture waiting for a finger (ReaderError `CANCELLED`). */
  signal?: AbortSignal;
  /** Called when the sensor reports a finger (readers whose protocol reports it). */
  onFingerOn?(): void;
  /** Called when the sensor reports the finger lifted (readers whose protocol reports it). */
  onFingerOff?(): void;
  /** Who asks (an IPC frame, a bridge client); a reader claimed by another owner answers BUSY. */
  owner?: string;
}

/** Events a reader manager emits; the kiosk shows them live. */
export type ReaderEvent =
  | { type: 'attached'; reader: ReaderInfo }
  | { type: 'detached'; readerId: string }
  | { type: 'capture-started'; readerId: string }
  | { type: 'finger-on'; readerId: string }
  | { type: 'finger-off'; readerId: string }
  /** The image event: a capture finished (the image itself goes to the caller of `capture`). */
  | { type: 'captured'; readerId: string; capturedAt: string; widthPx?: number; heightPx?: number; dpi?: number }
  | { type: 'error'; readerId: string; code: ReaderErrorCode; message: string };

/**
 * NOT_FOUND: no such reader attached. BUSY: another client owns the reader or a capture runs.
 * TIMEOUT / CANCELLED: the capture's timeout or signal. NO_IMAGE: nothing to serve (virtual).
 * DISCONNECTED: unplugged during the operation. PERMISSION: the OS refused the device (udev rule).
 * PROTOCOL: the device answered outside its protocol (or a replay diverged from its recording).
 * RETRY: the sensor rejected the scan (swipe too short...): capture again. IO: anything else.
 */
export type ReaderErrorCode = 'NOT_FOUND' | 'BUSY' | 'TIMEOUT' | 'CANCELLED' | 'NO_IMAGE' | 'DISCONNECTED' | 'PERMISSION' | 'PROTOCOL' | 'RETRY' | 'IO';

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
  /** Optional: the device was unplugged; a running capture fails with DISCONNECTED. */
  markDetached?(): void;
}

/**
 * A source of readers that the manager polls for hot-plug: each scan returns the ids currently
 * present and a factory for readers it has not seen yet.
 */
export interface ReaderProvider {
  /** Lists the readers present now. Must not open them. */
  scan(): Promise<Array<{ info: ReaderInfo; create(): FingerprintReader }>>;
  /** Optional hot-plug notifications (USB attach/detach): calls `onChange` when a scan may differ. Returns the unsubscribe function. */
  watch?(onChange: () => void): () => void;
}
