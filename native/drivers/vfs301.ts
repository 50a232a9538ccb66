/**
 * Validity VFS301 / VFS300 (138a:0005, 138a:0008; recorded: 0005), two-row swipe sensor, 200-pixel rows.
 *
 * Protocol, as observed in ../shared/datasets/usb-captures/vfs301/capture.ioctl (clean room: the
 * recording is the only source; blobs are extracted by native/tools/extract-commands.ts into
 * observed/vfs301-out.ts and keyed by the recording line they were seen on):
 * - bulk OUT 0x01 carries single-byte commands (01, 19, 1A, 17 = event poll, 04 = stop), 39-byte
 *   0x0B queries and long register programs; bulk IN 0x81 answers, bulk IN 0x82 streams data.
 * - `open` sends the init flow below (the order that replays against the recording).
 * - `capture` arms the scan (L162, answered `00 00`), polls the event every 200 ms (`17` -> 7 bytes:
 *   all zero = no finger, `00 00 02 00 00 00 00` = finger), then reads 64 bytes and blocks of 84032
 *   and 84096 bytes from 0x82 until a short block ends the swipe, then stops (04) and reads the
 *   replies (recorded: some of them time out, so a timeout there is expected).
 * - Data: scan lines of 288 bytes starting `01 FE`; 200 row pixels at bytes 8..207, 64 pixels of a
 *   second row at bytes 208..271 (inverted polarity; not used, see swipe-assembly.ts). The 64-byte
 *   read starts a line that the first block completes; image lines are taken from the blocks only
 *   (found by their `01 FE` start), so that straddling line is dropped.
 * Image: a swipe needs MIN_LINES scan lines with finger texture (standard deviation >= 20 grey
 * levels); the image keeps the first line and then each line differing from the last kept one by at
 * least 16 grey levels (mean absolute difference; swipe-assembly.ts, selectChangedLines), inverted,
 * the last scanned line on top (the orientation and polarity of the recording's capture.png). 200
 * pixels wide. The rule's threshold and the dropped first line were fitted black-box to the one
 * recording's capture.png (with them our image equals it pixel for pixel; native/README.md).
 * Resolution: not published; 800 dpi from the ridge period of the recorded print (native/ridge-period.ts).
 */
import { UsbTransferError, type UsbTransport } from '../usb/transport.js';
import { selectChangedLines, type LineSelectionOptions } from './swipe-assembly.js';
import { CaptureRetryError, DriverProtocolError, expectLength, sleep, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import { OUT } from './observed/vfs301-out.js';

const EP_OUT = 0x01;
const EP_CTRL = 0x81;
const EP_DATA = 0x82;
const TIMEOUT_MS = 300;
const DATA_TIMEOUT_MS = 2000;
const POLL_MS = 200;
const WIDTH = 200;
const LINE_BYTES = 288;
const FIRST_BLOCK = 84032;
const NEXT_BLOCK = 84096;
const MIN_LINES = 50;
/** A scan line with less contrast than this (standard deviation, grey levels) shows no finger. */
const TEXTURE_MIN_STD = 20;

type Key = keyof typeof OUT;
/** Flow step: send an observed blob, read from an endpoint, or read two endpoints whose replies race. */
type Step = { out: Key } | { ep: number; bytes: number } | { race: [number, number, number, number] };
const o = (out: Key): Step => ({ out });
const c = (bytes: number): Step => ({ ep: EP_CTRL, bytes });
const d = (bytes: number): Step => ({ ep: EP_DATA, bytes });

// Lines of capture.ioctl: L3 = 01, L16/L20 = 0B queries, L24 = 19, L38 = 1A; the rest are programs.
const INIT: Step[] = [
  o('L3'), c(38), o('L16'), c(6), o('L20'), c(7), o('L24'), c(64), c(4),
  o('L31'), c(2), o('L3'), c(38), o('L38'), c(2), o('L54'), c(2), o('L61'), c(2), d(256), d(32),
  o('L38'), c(2), o('L71'), c(2), o('L3'), c(38),
  o('L75'), c(2), d(11648), o('L82'), c(2), d(53248), o('L89'), c(2), d(19968), o('L96'), c(2), d(5824),
  o('L103'), c(2), d(6656), o('L110'), c(2), d(6656), o('L117'), c(2), d(832),
  o('L124'), c(2), o('L38'), c(2), o('L54'), c(2), o('L128'), { race: [EP_CTRL, 2, EP_DATA, 5760] },
  o('L38'), c(2), o('L31'), c(2), o('L38'), c(2), o('L144'), c(2), o('L148'), c(2), o('L3'), c(38),
  o('L152'), c(2368), c(36), d(5760),
];
const STOP: Step[] = [o('L193'), { race: [EP_CTRL, 2, EP_DATA, 16384] }, o('L128'), { race: [EP_DATA, 5760, EP_CTRL, 2] }];

class Vfs301Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    await this.run(INIT);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const { signal } = ctx;
    await this.run([o('L162'), c(2)], signal);
    for (;;) {
      await sleep(POLL_MS, signal);
      await this.run([o('L166')], signal);
      const event = await this.usb.bulkIn(EP_CTRL, 7, { timeoutMs: TIMEOUT_MS, signal });
      expectLength('vfs301', event, 7, 'event');
      const hex = Buffer.from(event).toString('hex');
      if (hex === '00000000000000') continue;
      if (hex === '00000200000000') break;
      throw new DriverProtocolError('vfs301', `unknown event ${hex}`);
    }
    ctx.fingerOn?.();
    await this.usb.bulkIn(EP_DATA, 64, { timeoutMs: TIMEOUT_MS, signal }); // starts a line the first block ends: not used
    const blocks: Uint8Array[] = [];
    for (let size = FIRST_BLOCK; ; size = NEXT_BLOCK) {
      const block = await this.usb.bulkIn(EP_DATA, size, { timeoutMs: DATA_TIMEOUT_MS, signal });
      if (block.length < size) break; // a short block ends the swipe (its lines are partial)
      blocks.push(block);
    }
    ctx.fingerOff?.();
    await this.run(STOP, signal);
    const lines = splitLines(Buffer.concat(blocks));
    const textured = lines.filter((l) => lineStd(l) >= TEXTURE_MIN_STD).length;
    if (textured < MIN_LINES) throw new CaptureRetryError('vfs301', 'TOO_SHORT', `swipe too short: ${textured} scan lines with a finger, need ${MIN_LINES}`);
    const image = selectChangedLines(lines.map((l) => l.subarray(8, 8 + WIDTH)), VFS301_ASSEMBLY);
    // Inverted, last scanned line on top.
    const h = image.heightPx;
    const pixels = new Uint8Array(WIDTH * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < WIDTH; x++) pixels[y * WIDTH + x] = 255 - image.pixels[(h - 1 - y) * WIDTH + x]!;
    return { widthPx: WIDTH, heightPx: h, pixels, dpi: vfs301.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  private async run(flow: Step[], signal?: AbortSignal): Promise<void> {
    for (const step of flow) {
      if ('out' in step) await this.usb.bulkOut(EP_OUT, new Uint8Array(Buffer.from(OUT[step.out], 'hex')), { timeoutMs: TIMEOUT_MS, signal });
      else if ('ep' in step) await this.usb.bulkIn(step.ep, step.bytes, { timeoutMs: TIMEOUT_MS, signal });
      else {
        // The two replies come in either order, or one not at all: a timed-out first read is tried again after the second.
        const [ep1, n1, ep2, n2] = step.race;
        const first = await this.usb.bulkIn(ep1, n1, { timeoutMs: TIMEOUT_MS, signal }).then(() => false, timedOut);
        await this.usb.bulkIn(ep2, n2, { timeoutMs: TIMEOUT_MS, signal }).catch(timedOut);
        if (first) await this.usb.bulkIn(ep1, n1, { timeoutMs: TIMEOUT_MS, signal }).catch(timedOut);
      }
    }
  }
}

/** True for a timeout (expected here); rethrows anything else. */
function timedOut(e: unknown): true {
  if (e instanceof UsbTransferError && e.code === 'TIMEOUT') return true;
  throw e;
}

/** Whole 288-byte scan lines, each starting `01 FE`, in arrival order. */
export function splitLines(data: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let at = 0;
  while (at + LINE_BYTES <= data.length) {
    if (data[at] === 0x01 && data[at + 1] === 0xfe) {
      lines.push(data.subarray(at, at + LINE_BYTES));
      at += LINE_BYTES;
    } else at++;
  }
  return lines;
}

/** Standard deviation of a line's primary pixels (grey levels). */
function lineStd(line: Uint8Array): number {
  let mean = 0;
  for (let x = 8; x < 8 + WIDTH; x++) mean += line[x]!;
  mean /= WIDTH;
  let s = 0;
  for (let x = 8; x < 8 + WIDTH; x++) s += (line[x]! - mean) ** 2;
  return Math.sqrt(s / WIDTH);
}

/** Line selection (swipe-assembly.ts); minChange fitted black-box on the recording (native/README.md). */
export const VFS301_ASSEMBLY: LineSelectionOptions = { widthPx: WIDTH, minChange: 16 };

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
  dpi: 800,
  create: (usb) => new Vfs301Driver(usb),
};
