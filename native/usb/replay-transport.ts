/**
 * A UsbTransport that answers as a recorded device did (PROTOCOLS.md §1.1 "Replay matching",
 * after umockdev's `ioctl_tree_execute`):
 * - each transfer searches the recording from just after the last matched URB, wrapping around
 *   once, for a URB of the same type, endpoint and flags;
 * - an OUT matches only if its length and every byte are equal (control: the SETUP packet too);
 * - an IN matches on requested length and receives the recorded data and status.
 * An OUT that matches nothing fails at once with ReplayMismatchError naming the transfer's index
 * and the first differing byte against the URB the device expected next. An IN that matches
 * nothing behaves as a device with nothing to say: it waits for its timeout (TIMEOUT), the
 * caller's AbortSignal (CANCELLED) or an unplug (NO_DEVICE).
 */
import type { RecordedUrb, Recording, UrbType } from './recording.js';
import { toHex, UsbTransferError, type ControlSetup, type TransferOptions, type UsbTransport } from './transport.js';

/** The driver sent a transfer that the recorded device never received. */
export class ReplayMismatchError extends UsbTransferError {
  /** 0-based index of the driver's transfer (every control/bulk/interrupt call counts). */
  readonly commandIndex: number;
  /** First differing byte of the data (or of the SETUP packet, see `inSetup`); -1 when only the length differs. */
  readonly byteOffset: number;
  /** The recorded URB the device expected next on that endpoint, if any. */
  readonly expected: RecordedUrb | undefined;
  readonly actual: Uint8Array;

  constructor(commandIndex: number, byteOffset: number, expected: RecordedUrb | undefined, actual: Uint8Array, detail: string) {
    super('REPLAY_MISMATCH', `replay mismatch at command #${commandIndex}${byteOffset >= 0 ? `, byte ${byteOffset}` : ''}: ${detail}`);
    this.name = 'ReplayMismatchError';
    this.commandIndex = commandIndex;
    this.byteOffset = byteOffset;
    this.expected = expected;
    this.actual = actual;
  }
}

/** Linux errno values a recording may carry in `status`, mapped to transport codes. */
const STATUS_CODES: Record<number, UsbTransferError['code']> = {
  [-2]: 'CANCELLED', // ENOENT: URB discarded
  [-104]: 'CANCELLED', // ECONNRESET: URB unlinked
  [-110]: 'TIMEOUT', // ETIMEDOUT
  [-32]: 'STALL', // EPIPE
  [-19]: 'NO_DEVICE', // ENODEV
  [-108]: 'NO_DEVICE', // ESHUTDOWN
};

export interface ReplayTransportOptions {
  /** Interfaces the recorded device has (claiming another fails). Default: any. */
  interfaces?: number[];
}

/** Replays one recording; one instance per device session. */
export class ReplayTransport implements UsbTransport {
  readonly vendorId: number;
  readonly productId: number;
  private readonly urbs: RecordedUrb[];
  private last = -1;
  private commands = 0;
  private readonly used = new Set<number>();
  private gone = false;
  private opened = false;
  private readonly waiters = new Set<(e: UsbTransferError) => void>();

  constructor(readonly recording: Recording, private readonly options: ReplayTransportOptions = {}) {
    this.vendorId = recording.device.vendorId;
    this.productId = recording.device.productId;
    this.urbs = recording.urbs;
  }

  /** How many recorded URBs have been answered at least once, of how many. */
  get coverage(): { used: number; total: number } {
    return { used: this.used.size, total: this.urbs.length };
  }

  /** Transfers issued so far. */
  get commandCount(): number {
    return this.commands;
  }

  /** Simulates pulling the cable: pending and later transfers fail with NO_DEVICE. */
  unplug(): void {
    this.gone = true;
    for (const fail of [...this.waiters]) fail(new UsbTransferError('NO_DEVICE', 'device unplugged'));
  }

  async open(): Promise<void> {
    this.assertPresent('open');
    this.opened = true;
  }

  async claimInterface(n: number): Promise<void> {
    this.assertPresent('claim');
    if (!this.opened) throw new UsbTransferError('IO', 'device not open');
    if (this.options.interfaces && !this.options.interfaces.includes(n)) throw new UsbTransferError('IO', `no interface ${n}`);
  }

  async releaseInterface(): Promise<void> {
    this.assertPresent('release');
  }

  async reset(): Promise<void> {
    this.assertPresent('reset');
  }

  async controlOut(setup: ControlSetup, data: Uint8Array, options?: TransferOptions): Promise<void> {
    await this.out('control', 0x00, data, options, setupBytes(setup, data.length, 0x00));
  }

  async controlIn(setup: ControlSetup, length: number, options?: TransferOptions): Promise<Uint8Array> {
    return this.in('control', 0x80, length, options, setupBytes({ ...setup, requestType: setup.requestType | 0x80 }, length, 0x80));
  }

  bulkOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void> {
    return this.out('bulk', endpoint, data, options);
  }

  bulkIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array> {
    return this.in('bulk', endpoint, length, options);
  }

  interruptOut(endpoint: number, data: Uint8Array, options?: TransferOptions): Promise<void> {
    return this.out('interrupt', endpoint, data, options);
  }

  interruptIn(endpoint: number, length: number, options?: TransferOptions): Promise<Uint8Array> {
    return this.in('interrupt', endpoint, length, options);
  }

  async close(): Promise<void> {
    this.opened = false;
  }

  private assertPresent(what: string): void {
    if (this.gone) throw new UsbTransferError('NO_DEVICE', `${what}: device unplugged`);
  }

  /** Indexes of the recording in search order: after the last match, wrapping around once. */
  private *searchOrder(): Generator<number> {
    const n = this.urbs.length;
    for (let k = 1; k <= n; k++) yield (this.last + k + n) % n;
  }

  private async out(type: UrbType, endpoint: number, data: Uint8Array, options: TransferOptions = {}, setup?: Uint8Array): Promise<void> {
    const index = this.commands++;
    this.assertPresent(`command #${index}`);
    if (options.signal?.aborted) throw new UsbTransferError('CANCELLED', `command #${index} cancelled`);
    let expected: RecordedUrb | undefined;
    for (const i of this.searchOrder()) {
      const urb = this.urbs[i]!;
      if (urb.type !== type || urb.endpoint !== endpoint) continue;
      expected ??= urb;
      if (urb.requestedLength !== data.length || !sameBytes(urb.data, data)) continue;
      if (setup && (!urb.setup || !sameBytes(urb.setup, setup))) continue;
      this.matched(i);
      if (urb.status !== 0) throw statusError(urb, index);
      return;
    }
    const ep = `${type} OUT 0x${endpoint.toString(16).padStart(2, '0')}`;
    if (!expected) throw new ReplayMismatchError(index, -1, undefined, data, `${ep} ${toHex(data)}: the recording has no ${ep} transfer`);
    if (setup && expected.setup && !sameBytes(expected.setup, setup)) {
      const at = firstDifference(expected.setup, setup);
      throw new ReplayMismatchError(index, at, expected, data, `${ep} SETUP ${toHex(setup)} differs at byte ${at} from the recorded ${toHex(expected.setup)} (${expected.source})`);
    }
    const at = firstDifference(expected.data, data);
    throw new ReplayMismatchError(
      index,
      at,
      expected,
      data,
      `${ep} sent ${toHex(data)}, the device expected ${toHex(expected.data)} (${expected.source})` +
        (at < Math.min(expected.data.length, data.length) ? `: 0x${hexByte(data[at]!)} instead of 0x${hexByte(expected.data[at]!)}` : `: length ${data.length} instead of ${expected.data.length}`),
    );
  }

  private async in(type: UrbType, endpoint: number, length: number, options: TransferOptions = {}, setup?: Uint8Array): Promise<Uint8Array> {
    const index = this.commands++;
    this.assertPresent(`command #${index}`);
    if (options.signal?.aborted) throw new UsbTransferError('CANCELLED', `command #${index} cancelled`);
    for (const i of this.searchOrder()) {
      const urb = this.urbs[i]!;
      if (urb.type !== type || urb.endpoint !== endpoint || urb.requestedLength !== length) continue;
      if (setup && (!urb.setup || !sameBytes(urb.setup, setup))) continue;
      this.matched(i);
      if (urb.status !== 0) throw statusError(urb, index, options.timeoutMs);
      return urb.data.slice();
    }
    return this.waitForever(index, type, endpoint, length, options);
  }

  /** An IN the device never answered: wait as real hardware does. */
  private waitForever(index: number, type: UrbType, endpoint: number, length: number, options: TransferOptions): Promise<Uint8Array> {
    const what = `command #${index} (${type} IN 0x${endpoint.toString(16)}, ${length} bytes)`;
    return new Promise((_resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (e: UsbTransferError) => {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(finish);
        reject(e);
      };
      const onAbort = () => finish(new UsbTransferError('CANCELLED', `${what} cancelled`));
      this.waiters.add(finish);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs && options.timeoutMs > 0) {
        timer = setTimeout(() => finish(new UsbTransferError('TIMEOUT', `${what}: no recorded answer within ${options.timeoutMs} ms`)), options.timeoutMs);
      }
    });
  }

  private matched(i: number): void {
    this.last = i;
    this.used.add(i);
  }
}

/**
 * The error a recorded failed URB stands for. libusb implements a transfer timeout by discarding
 * the URB, which usbfs records as -ENOENT: a discarded IN replayed to a transfer that has a
 * timeout is that timeout.
 */
function statusError(urb: RecordedUrb, index: number, timeoutMs?: number): UsbTransferError {
  const code = urb.status === -2 && timeoutMs ? 'TIMEOUT' : (STATUS_CODES[urb.status] ?? 'IO');
  return new UsbTransferError(code, `command #${index}: recorded status ${urb.status} (${urb.source})`);
}

function setupBytes(setup: ControlSetup, length: number, direction: number): Uint8Array {
  const b = new Uint8Array(8);
  b[0] = (setup.requestType & 0x7f) | direction;
  b[1] = setup.request;
  b[2] = setup.value & 0xff;
  b[3] = setup.value >> 8;
  b[4] = setup.index & 0xff;
  b[5] = setup.index >> 8;
  b[6] = length & 0xff;
  b[7] = length >> 8;
  return b;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

const hexByte = (v: number) => v.toString(16).padStart(2, '0').toUpperCase();
