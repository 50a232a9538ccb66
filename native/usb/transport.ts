/**
 * The USB transport that fingerprint drivers talk to: the subset of the `usb` package's
 * device/interface/endpoint API the drivers use (control, bulk and interrupt transfers,
 * claim/release of an interface, reset). Two implementations: `UsbDeviceTransport` over a real
 * `usb.Device` (libusb), and `ReplayTransport` (replay-transport.ts) answering from a recording.
 *
 * Endpoints are addresses with the direction bit (0x83 = IN endpoint 3). Lengths are in bytes,
 * timeouts in milliseconds (0 = wait without limit, as libusb).
 */

/** Stable codes of a failed transfer or device operation. */
export type UsbErrorCode =
  | 'TIMEOUT' // the transfer's timeout elapsed (libusb LIBUSB_ERROR_TIMEOUT / TRANSFER_TIMED_OUT)
  | 'CANCELLED' // the caller's AbortSignal fired, or the device reported the URB as cancelled (-ENOENT)
  | 'NO_DEVICE' // the device was unplugged (LIBUSB_ERROR_NO_DEVICE)
  | 'ACCESS' // no permission on the device node (LIBUSB_ERROR_ACCESS): see native/udev/
  | 'BUSY' // the interface is claimed by another process or kernel driver (LIBUSB_ERROR_BUSY)
  | 'STALL' // the endpoint stalled (LIBUSB_ERROR_PIPE)
  | 'IO' // any other transfer failure
  | 'REPLAY_MISMATCH'; // replay only: the driver sent what the recorded device never received

/** A USB transfer or device operation failed. */
export class UsbTransferError extends Error {
  readonly code: UsbErrorCode;

  constructor(code: UsbErrorCode, message: string) {
    super(message);
    this.name = 'UsbTransferError';
    this.code = code;
  }
}

/** The 8-byte SETUP packet of a control transfer, without wLength (taken from the data or length). */
export interface ControlSetup {
  /** bmRequestType, e.g. 0x40 = vendor, host-to-device, device recipient. */
  requestType: number;
  request: number;
  value: number;
  index: number;
}

/** Per-transfer options. */
export interface TransferOptions {
  /** Milliseconds before the transfer fails with `TIMEOUT`; 0 or absent = no limit. */
  timeoutMs?: number;
  /** Aborting cancels the transfer (`CANCELLED`). */
  signal?: AbortSignal;
}

/** What a driver may do with a USB device. All methods reject with UsbTransferError. */
export interface UsbTransport {
  readonly vendorId: number;
  readonly productId: number;
  /** Opens the device (idempotent). Rejects `ACCESS` without permission, `NO_DEVICE` once unplugged. */
  open(): Promise<void>;
  /** Claims interface `n` of the active configuration (detaching a kernel driver where the OS allows). */
  claimInterface(n: number): Promise<void>;
  releaseInterface(n: number): Promise<void>;
  /** USB port reset of the device. */
  reset(): Promise<void>;
  /** Control transfer host-to-device with `data` (may be empty). */
  controlOut(setup: ControlSetup, data: Uint8Array, options?: TransferOptions): Promise<void>;
  /** Control transfer device-to-host of at most `length` bytes; resolves with what the device sent. */
  controlIn(setup: ControlSetup, length: number, options?: TransferOptions): Promise<Uint8Array>;
  bulkOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void>;
  /** Reads at most `length` bytes; the result may be shorter (a short packet ends a transfer). */
  bulkIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array>;
  interruptOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void>;
  interruptIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array>;
  /** Releases claimed interfaces and closes the device (idempotent, never rejects). */
  close(): Promise<void>;
}

/** Hex of bytes, for messages (`8038010008000000`). */
export function toHex(bytes: Uint8Array, max = 64): string {
  const hex = Buffer.from(bytes.subarray(0, max)).toString('hex').toUpperCase();
  return bytes.length > max ? `${hex}…(${bytes.length} bytes)` : hex;
}

// ---------------------------------------------------------------------------------------------
// Real transport over the `usb` package (libusb).

/** The part of `usb.Device` this transport uses (lets tests pass a fake). */
export interface UsbDeviceLike {
  deviceDescriptor: { idVendor: number; idProduct: number };
  busNumber: number;
  deviceAddress: number;
  portNumbers?: number[];
  timeout: number;
  open(defaultConfig?: boolean): void;
  close(): void;
  interface(n: number): UsbInterfaceLike;
  controlTransfer(
    requestType: number,
    request: number,
    value: number,
    index: number,
    dataOrLength: number | Buffer,
    callback: (error: (Error & { errno?: number }) | undefined, buffer: Buffer | number | undefined) => void,
  ): unknown;
  reset(callback: (error?: Error & { errno?: number }) => void): void;
}

interface UsbInterfaceLike {
  claim(): void;
  release(closeEndpoints: boolean, callback: (error?: Error & { errno?: number }) => void): void;
  isKernelDriverActive?(): boolean;
  detachKernelDriver?(): void;
  endpoints: UsbEndpointLike[];
}

interface UsbTransferLike {
  submit(buffer: Buffer, callback?: (error: unknown, buffer: Buffer, actual: number) => void): unknown;
  cancel(): boolean;
}

interface UsbEndpointLike {
  address: number;
  makeTransfer(timeout: number, callback: (error: (Error & { errno?: number }) | undefined, buffer: Buffer, actual: number) => void): UsbTransferLike;
}

// libusb error and transfer-status numbers as the `usb` package reports them in `errno`.
const LIBUSB_CODES: Record<number, UsbErrorCode> = {
  [-3]: 'ACCESS', // LIBUSB_ERROR_ACCESS
  [-4]: 'NO_DEVICE', // LIBUSB_ERROR_NO_DEVICE
  [-6]: 'BUSY', // LIBUSB_ERROR_BUSY
  [-7]: 'TIMEOUT', // LIBUSB_ERROR_TIMEOUT
  [-9]: 'STALL', // LIBUSB_ERROR_PIPE
  2: 'TIMEOUT', // LIBUSB_TRANSFER_TIMED_OUT
  3: 'CANCELLED', // LIBUSB_TRANSFER_CANCELLED
  4: 'STALL', // LIBUSB_TRANSFER_STALL
  5: 'NO_DEVICE', // LIBUSB_TRANSFER_NO_DEVICE
};

/** Maps an error thrown by the `usb` package to a UsbTransferError. */
export function fromLibusbError(e: unknown, what: string): UsbTransferError {
  if (e instanceof UsbTransferError) return e;
  const err = e as (Error & { errno?: number }) | undefined;
  const code = (err?.errno !== undefined && LIBUSB_CODES[err.errno]) || 'IO';
  return new UsbTransferError(code, `${what}: ${err?.message ?? String(e)}`);
}

/**
 * Transport over one `usb.Device` (`usb` npm package, libusb). IN transfers are submitted through
 * `makeTransfer` so an AbortSignal can cancel them.
 */
export class UsbDeviceTransport implements UsbTransport {
  readonly vendorId: number;
  readonly productId: number;
  private opened = false;
  private readonly claimed = new Set<number>();

  constructor(private readonly device: UsbDeviceLike) {
    this.vendorId = device.deviceDescriptor.idVendor;
    this.productId = device.deviceDescriptor.idProduct;
  }

  async open(): Promise<void> {
    if (this.opened) return;
    try {
      this.device.open();
    } catch (e) {
      throw fromLibusbError(e, 'open');
    }
    this.opened = true;
  }

  async claimInterface(n: number): Promise<void> {
    const iface = this.iface(n);
    try {
      if (iface.isKernelDriverActive?.()) iface.detachKernelDriver?.();
      iface.claim();
    } catch (e) {
      throw fromLibusbError(e, `claim interface ${n}`);
    }
    this.claimed.add(n);
  }

  async releaseInterface(n: number): Promise<void> {
    const iface = this.iface(n);
    await new Promise<void>((resolve, reject) =>
      iface.release(true, (error) => (error ? reject(fromLibusbError(error, `release interface ${n}`)) : resolve())),
    );
    this.claimed.delete(n);
  }

  reset(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.device.reset((error) => (error ? reject(fromLibusbError(error, 'reset')) : resolve())),
    );
  }

  async controlOut(setup: ControlSetup, data: Uint8Array, options: TransferOptions = {}): Promise<void> {
    await this.control(setup, Buffer.from(data), options);
  }

  async controlIn(setup: ControlSetup, length: number, options: TransferOptions = {}): Promise<Uint8Array> {
    const result = await this.control({ ...setup, requestType: setup.requestType | 0x80 }, length, options);
    return result instanceof Buffer ? new Uint8Array(result) : new Uint8Array(0);
  }

  bulkOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void> {
    return this.transfer(endpoint, Buffer.from(data), options).then(() => undefined);
  }

  bulkIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array> {
    return this.transfer(endpoint, Buffer.alloc(length), options);
  }

  interruptOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void> {
    return this.bulkOut(endpoint, data, options);
  }

  interruptIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array> {
    return this.bulkIn(endpoint, length, options);
  }

  async close(): Promise<void> {
    for (const n of [...this.claimed]) await this.releaseInterface(n).catch(() => undefined);
    if (this.opened) {
      try {
        this.device.close();
      } catch {
        // already gone (unplugged): nothing to release
      }
    }
    this.opened = false;
  }

  private iface(n: number): UsbInterfaceLike {
    if (!this.opened) throw new UsbTransferError('IO', 'device not open');
    return this.device.interface(n);
  }

  private control(setup: ControlSetup, dataOrLength: Buffer | number, options: TransferOptions): Promise<Buffer | number | undefined> {
    if (options.signal?.aborted) return Promise.reject(new UsbTransferError('CANCELLED', 'control transfer cancelled'));
    this.device.timeout = options.timeoutMs ?? 0;
    return new Promise((resolve, reject) => {
      this.device.controlTransfer(setup.requestType, setup.request, setup.value, setup.index, dataOrLength, (error, buffer) =>
        error ? reject(fromLibusbError(error, 'control transfer')) : resolve(buffer),
      );
    });
  }

  private transfer(endpoint: number, buffer: Buffer, options: TransferOptions = {}): Promise<Uint8Array> {
    let ep: UsbEndpointLike;
    try {
      ep = this.endpoint(endpoint);
    } catch (e) {
      return Promise.reject(fromLibusbError(e, 'transfer'));
    }
    const what = `transfer on endpoint 0x${endpoint.toString(16)}`;
    if (options.signal?.aborted) return Promise.reject(new UsbTransferError('CANCELLED', `${what} cancelled`));
    return new Promise((resolve, reject) => {
      const onAbort = () => transfer.cancel();
      const transfer = ep.makeTransfer(options.timeoutMs ?? 0, (error, buf, actual) => {
        options.signal?.removeEventListener('abort', onAbort);
        if (error) reject(fromLibusbError(error, what));
        else resolve(new Uint8Array(buf.subarray(0, actual)));
      });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        transfer.submit(buffer);
      } catch (e) {
        options.signal?.removeEventListener('abort', onAbort);
        reject(fromLibusbError(e, what));
      }
    });
  }

  private endpoint(address: number): UsbEndpointLike {
    for (const n of this.claimed) {
      const ep = this.device.interface(n).endpoints.find((e) => e.address === address);
      if (ep) return ep;
    }
    throw new UsbTransferError('IO', `endpoint 0x${address.toString(16)} is not on a claimed interface`);
  }
}
