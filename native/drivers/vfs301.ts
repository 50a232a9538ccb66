/**
 * Validity VFS301 / VFS300 (138a:0005, 138a:0008), swipe sensor, lines of 200 pixels.
 * Protocol after libfprint's vfs301 driver (LGPL-2.1, snapshot 1f5e082): bulk OUT 0x01, control
 * replies on bulk IN 0x81, data on bulk IN 0x82; single-byte commands (01, 04, 17, 19, 1A), 0x0B
 * with a subtype, and register programs (vfs301-commands.ts). Capture: arm ("next scan" FA00), poll
 * the event (17 -> 00 00 02 00.. = finger) every 200 ms, read 64 bytes then 84032-byte and
 * 84096-byte blocks of 288-byte lines (`01 FE` start, pixels at bytes 8..207) until a short read
 * ends the swipe, then the finish sequence (04, 0220/2).
 * Image: a line is kept when its mean absolute difference to the last kept line exceeds 15; the
 * kept lines, flipped vertically and inverted as libfprint normalises them. 200 pixels wide.
 * Resolution: not published; nominal 500 dpi (libfprint's default; unverified).
 * Reads inside the finish sequence may time out (the data may not come at all, as libfprint
 * notes); those timeouts are expected and ignored, as the reference driver does.
 */
import { UsbTransferError, type UsbTransport } from '../usb/transport.js';
import { CaptureRetryError, DriverProtocolError, expectLength, sleep, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import * as C from './vfs301-commands.js';

const EP_OUT = 0x01;
const EP_CTRL = 0x81;
const EP_DATA = 0x82;
const WAIT_TIMEOUT_MS = 300;
const RECV_TIMEOUT_MS = 2000;
const POLL_MS = 200;
const WIDTH = 200;
const LINE_BYTES = 288;
const RECV_FIRST = 84032;
const RECV_NEXT = 84096;
const LINE_DIFF_THRESHOLD = 15;
const S4_TAIL_BYTES = 20;

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));

/** Command 0x0B with a subtype (39 bytes). */
function cmd0B(subtype: 0x04 | 0x05): Uint8Array {
  const b = new Uint8Array(39);
  b[0] = 0x0b;
  b[21] = subtype;
  b[35] = subtype === 0x04 ? 0x9f : 0xab;
  return b;
}

/** The "next scan" program with its 16-bit parameter written twice over the DEADDEAD marker. */
function nextScan(param: 0xfa00 | 0x2c01 | 0x5e01): Uint8Array {
  const data = hex(C.next_scan_template);
  const at = data.length - S4_TAIL_BYTES - 4;
  if (data[at] !== 0xde || data[at + 1] !== 0xad) throw new Error('vfs301: next-scan template without its marker');
  data[at] = data[at + 2] = param >> 8;
  data[at + 1] = data[at + 3] = param & 0xff;
  return data;
}

/** Lines that differ enough from the last kept one (vfs301_extract_image). */
export function vfs301SelectLines(scanlines: Uint8Array[]): Uint8Array[] {
  const kept = [scanlines[0]!];
  let last = scanlines[0]!;
  for (let i = 1; i < scanlines.length; i++) {
    const line = scanlines[i]!;
    let diff = 0;
    for (let x = 0; x < WIDTH; x++) diff += Math.abs(last[x]! - line[x]!);
    if (Math.trunc(diff / WIDTH) > LINE_DIFF_THRESHOLD) {
      kept.push(line);
      last = line;
    }
  }
  return kept;
}

class Vfs301Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    const s = (b: Uint8Array) => this.send(b);
    const r = (ep: number, n: number) => this.recv(ep, n);
    await s(Uint8Array.of(0x01)); await r(EP_CTRL, 38);
    await s(cmd0B(0x04)); await r(EP_CTRL, 6);
    await s(cmd0B(0x05)); await r(EP_CTRL, 7);
    await s(Uint8Array.of(0x19)); await r(EP_CTRL, 64); await r(EP_CTRL, 4);
    await s(hex(C.raw_06_1)); await r(EP_CTRL, 2);
    await s(Uint8Array.of(0x01)); await r(EP_CTRL, 38);
    await s(Uint8Array.of(0x1a)); await r(EP_CTRL, 2);
    await s(hex(C.raw_06_2)); await r(EP_CTRL, 2);
    await s(hex(C.p0220_01)); await r(EP_CTRL, 2); await r(EP_DATA, 256); await r(EP_DATA, 32);
    await s(Uint8Array.of(0x1a)); await r(EP_CTRL, 2);
    await s(hex(C.raw_06_3)); await r(EP_CTRL, 2);
    await s(Uint8Array.of(0x01)); await r(EP_CTRL, 38);
    const init02D0: Array<[string, number]> = [
      [C.p02D0_01, 11648], [C.p02D0_02, 53248], [C.p02D0_03, 19968], [C.p02D0_04, 5824], [C.p02D0_05, 6656], [C.p02D0_06, 6656], [C.p02D0_07, 832],
    ];
    for (const [program, bytes] of init02D0) {
      await s(hex(program)); await r(EP_CTRL, 2); await r(EP_DATA, bytes);
    }
    await s(hex(C.raw_12)); await r(EP_CTRL, 2);
    await s(Uint8Array.of(0x1a)); await r(EP_CTRL, 2);
    await s(hex(C.raw_06_2)); await r(EP_CTRL, 2);
    await s(hex(C.p0220_02)); await this.parallelReceive(EP_CTRL, 2, EP_DATA, 5760);
    await s(Uint8Array.of(0x1a)); await r(EP_CTRL, 2);
    await s(hex(C.raw_06_1)); await r(EP_CTRL, 2);
    await s(Uint8Array.of(0x1a)); await r(EP_CTRL, 2);
    await s(hex(C.raw_06_4)); await r(EP_CTRL, 2);
    await s(hex(C.raw_24)); await r(EP_CTRL, 2); // turns the sensor's light on
    await s(Uint8Array.of(0x01)); await r(EP_CTRL, 38);
    await s(hex(C.p0220_03)); await r(EP_CTRL, 2368); await r(EP_CTRL, 36); await r(EP_DATA, 5760);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const { signal } = ctx;
    await this.send(nextScan(0xfa00), signal);
    await this.recv(EP_CTRL, 2, signal);
    // Poll for the finger event.
    for (;;) {
      await sleep(POLL_MS, signal);
      await this.send(Uint8Array.of(0x17), signal);
      const event = await this.recv(EP_CTRL, 7, signal);
      expectLength('vfs301', event, 7, 'event');
      if (event.every((b) => b === 0)) continue;
      if (event[2] === 0x02 && event.every((b, i) => i === 2 || b === 0)) break;
      throw new DriverProtocolError('vfs301', `unknown event ${Buffer.from(event).toString('hex')}`);
    }
    ctx.fingerOn?.();
    await this.recv(EP_DATA, 64, signal);
    const scanlines: Uint8Array[] = [];
    for (let first = true; ; first = false) {
      const length = first ? RECV_FIRST : RECV_NEXT;
      const block = await this.usb.bulkIn(EP_DATA, length, { timeoutMs: RECV_TIMEOUT_MS, signal });
      if (block.length < length) break; // a short read ends the swipe (its data is not used)
      let start = 0;
      if (first) while (start < LINE_BYTES && !(block[start] === 0x01 && block[start + 1] === 0xfe)) start++;
      const lines = Math.trunc((block.length - start) / LINE_BYTES);
      for (let i = 0; i < lines; i++) scanlines.push(block.slice(start + i * LINE_BYTES + 8, start + i * LINE_BYTES + 8 + WIDTH));
    }
    ctx.fingerOff?.();
    // Finish the scan: the replies may come in any order or not at all.
    await this.send(Uint8Array.of(0x04), signal);
    await this.parallelReceive(EP_CTRL, 2, EP_DATA, 16384, signal);
    await this.send(hex(C.p0220_02), signal);
    await this.parallelReceive(EP_DATA, 5760, EP_CTRL, 2, signal);
    if (scanlines.length === 0) throw new CaptureRetryError('vfs301', 'TOO_SHORT', 'no image lines');
    const kept = vfs301SelectLines(scanlines);
    const pixels = new Uint8Array(kept.length * WIDTH);
    // Flipped vertically and inverted (ridges dark).
    kept.forEach((line, y) => {
      const row = (kept.length - 1 - y) * WIDTH;
      for (let x = 0; x < WIDTH; x++) pixels[row + x] = 255 - line[x]!;
    });
    return { widthPx: WIDTH, heightPx: kept.length, pixels, dpi: vfs301.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  private send(data: Uint8Array, signal?: AbortSignal): Promise<void> {
    return this.usb.bulkOut(EP_OUT, data, { timeoutMs: WAIT_TIMEOUT_MS, signal });
  }

  private recv(ep: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    return this.usb.bulkIn(ep, length, { timeoutMs: WAIT_TIMEOUT_MS, signal });
  }

  /** Reads from two endpoints whose replies race; a timed-out first read is retried once after the second. */
  private async parallelReceive(ep1: number, len1: number, ep2: number, len2: number, signal?: AbortSignal): Promise<void> {
    const first = await this.recv(ep1, len1, signal).then(() => undefined, expectedTimeout);
    await this.recv(ep2, len2, signal).catch(expectedTimeout);
    if (first) await this.recv(ep1, len1, signal).catch(expectedTimeout);
  }
}

/** Returns the timeout (to retry) and rethrows any other failure. */
function expectedTimeout(e: unknown): UsbTransferError {
  if (e instanceof UsbTransferError && e.code === 'TIMEOUT') return e;
  throw e;
}

export const vfs301: DriverDefinition = {
  id: 'vfs301',
  name: 'Validity VFS301/VFS300',
  devices: [
    { vendorId: 0x138a, productId: 0x0005 },
    { vendorId: 0x138a, productId: 0x0008 },
  ],
  sensor: 'swipe',
  widthPx: WIDTH,
  heightPx: 0,
  dpi: 500,
  create: (usb) => new Vfs301Driver(usb),
};
