/**
 * Validity VFS5011 and relatives (138a:0010, 0011, 0015, 0017, 0018; recorded: 0017), two-row swipe
 * sensor, 160-pixel rows.
 *
 * Protocol, as observed in ../shared/datasets/usb-captures/vfs5011/capture.ioctl (clean room: the
 * recording is the only source; the byte blobs are extracted by native/tools/extract-commands.ts
 * into observed/vfs5011-out.ts and keyed by the recording line they were seen on):
 * - bulk OUT 0x01 carries single-byte commands (01, 19, 1A, 27, 04) and long register programs;
 *   bulk IN 0x81 answers (`00 00` after every program), bulk IN 0x82 streams data.
 * - `open` sends the init flow below (the order that replays against the recording); `capture`
 *   sends the capture flow, then reads 61440-byte chunks (256 scan lines of 240 bytes) from 0x82
 *   with no timeout of its own until the finger has come and gone.
 * - A scan line (240 bytes): 8 header bytes, 160 row pixels (bytes 8..167), 64 pixels of a second
 *   row (bytes 168..231, inverted polarity; not used, see swipe-assembly.ts), 8 trailing bytes.
 * Image: scan lines from the first to the last with finger texture (standard deviation >= 20 grey
 * levels), resampled by the estimated swipe speed (swipe-assembly.ts, assembleSwipeLines, with
 * parameters fitted black-box to the recording's capture.png), the last scanned line on top (the
 * orientation of the recording's capture.png). 160 pixels wide.
 * Resolution: not published; 600 dpi from the ridge period of the recorded print as this assembly
 * makes it (native/ridge-period.ts: 585; capture.png's ridges imply 596; native/README.md).
 */
import type { UsbTransport } from '../usb/transport.js';
import { assembleSwipeLines, type SwipeLineOptions } from './swipe-assembly.js';
import { CaptureRetryError, DriverProtocolError, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import { OUT } from './observed/vfs5011-out.js';

const EP_OUT = 0x01;
const EP_CTRL = 0x81;
const EP_DATA = 0x82;
const TIMEOUT_MS = 3000;
const LINE_BYTES = 240;
const WIDTH = 160;
const CHUNK_LINES = 256;
/** A scan line with less contrast than this (standard deviation, grey levels) shows no finger. */
const TEXTURE_MIN_STD = 20;
/** The swipe is over after this many textureless lines following the finger. */
const END_LINES = 64;
/** A swipe shorter than this many textured lines is rejected. */
const MIN_LINES = 100;
/** Rows at most read per capture (~25 s of streaming): ends a finger left resting on the sensor. */
const MAX_LINES = 100_000;

/** A flow step: send an observed blob, or read `bytes` from an endpoint (`ok`: the reply must be 00 00). */
type Step = { out: keyof typeof OUT } | { ep: number; bytes: number; ok?: boolean };
const o = (out: keyof typeof OUT): Step => ({ out });
const ctrl = (bytes = 64): Step => ({ ep: EP_CTRL, bytes });
const ok = (bytes = 64): Step => ({ ep: EP_CTRL, bytes, ok: true });
const data = (bytes: number): Step => ({ ep: EP_DATA, bytes });

// Lines of capture.ioctl: L3 = 01, L7 = 19, L19 = 1A, L66 = 27, L82 = 04; the rest are programs.
const INIT: Step[] = [
  o('L3'), ctrl(), o('L7'), ctrl(), ctrl(), o('L10'), ctrl(), o('L12'), ctrl(), o('L14'), ok(),
  o('L3'), ctrl(), o('L19'), ok(), o('L29'), ok(), o('L32'), ok(), data(256), data(64), o('L19'), ok(), o('L36'), ok(),
  o('L3'), ctrl(), o('L38'), ok(), data(17216), data(32), o('L42'), ok(), data(45056), o('L45'), ok(), data(16896),
  o('L48'), ok(), data(4928), o('L51'), ok(), data(5632), o('L54'), ok(), data(5632), o('L57'), ok(), data(3328), data(64),
  o('L61'), ok(), o('L19'), ok(), o('L29'), ok(), o('L63'), ok(), data(4800), o('L19'), ok(), o('L14'), ok(),
  o('L66'), ctrl(), o('L19'), ok(), o('L68'), ok(), o('L72'), ctrl(2368), ctrl(), data(4800), o('L76'), ok(), o('L80'), ok(),
];
const START_CAPTURE: Step[] = [
  o('L82'), data(64), data(84032), ok(), o('L19'), ok(), o('L14'), ok(), o('L19'), ok(), o('L68'), ok(),
  o('L89'), ctrl(2368), ctrl(), data(4800), o('L76'), ok(), o('L96'), ok(2368),
];

function stdDev(p: Uint8Array): number {
  let mean = 0;
  for (const v of p) mean += v;
  mean /= p.length;
  let s = 0;
  for (const v of p) s += (v - mean) * (v - mean);
  return Math.sqrt(s / p.length);
}

class Vfs5011Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    await this.run(INIT, TIMEOUT_MS);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    await this.run(START_CAPTURE, 1000, ctx.signal);
    const lines: Uint8Array[] = [];
    let textured = 0;
    let quiet = 0;
    let read = 0;
    while (read < MAX_LINES && !(textured > 0 && quiet >= END_LINES)) {
      // Blocks until the sensor streams: no timeout of its own, the caller's timeout or signal ends it.
      const chunk = await this.usb.bulkIn(EP_DATA, CHUNK_LINES * LINE_BYTES, { signal: ctx.signal });
      for (let at = 0; at + LINE_BYTES <= chunk.length; at += LINE_BYTES, read++) {
        const line = chunk.slice(at, at + LINE_BYTES);
        const hasTexture = stdDev(line.subarray(8, 8 + WIDTH)) >= TEXTURE_MIN_STD;
        if (hasTexture && textured === 0) ctx.fingerOn?.();
        if (hasTexture) {
          textured++;
          quiet = 0;
        } else quiet++;
        if (textured > 0) lines.push(line);
      }
    }
    ctx.fingerOff?.();
    const used = lines.slice(0, lines.length - quiet);
    if (used.length < MIN_LINES) throw new CaptureRetryError('vfs5011', 'TOO_SHORT', `swipe too short: ${used.length} scan lines, need ${MIN_LINES}`);
    const image = assembleSwipeLines(used.map((l) => l.subarray(8, 8 + WIDTH)), VFS5011_ASSEMBLY);
    // Last scanned line on top.
    const pixels = new Uint8Array(image.pixels.length);
    for (let y = 0; y < image.heightPx; y++) pixels.set(image.pixels.subarray((image.heightPx - 1 - y) * WIDTH, (image.heightPx - y) * WIDTH), y * WIDTH);
    return { widthPx: WIDTH, heightPx: image.heightPx, pixels, dpi: vfs5011.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  private async run(flow: Step[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const io = { timeoutMs, signal };
    for (const [i, step] of flow.entries()) {
      if ('out' in step) {
        await this.usb.bulkOut(EP_OUT, new Uint8Array(Buffer.from(OUT[step.out], 'hex')), io);
        continue;
      }
      const reply = await this.usb.bulkIn(step.ep, step.bytes, io);
      if (step.ok && (reply.length !== 2 || reply[0] !== 0 || reply[1] !== 0)) {
        throw new DriverProtocolError('vfs5011', `step ${i}: expected the reply 0000, got ${Buffer.from(reply.subarray(0, 8)).toString('hex')} (${reply.length} bytes)`);
      }
    }
  }
}

/**
 * Swipe assembly parameters (see swipe-assembly.ts), fitted black-box to the one recording's
 * capture.png (lowest mean absolute difference over a grid; speedGain then gives capture.png's height, 334 rows;
 * native/README.md).
 */
export const VFS5011_ASSEMBLY: SwipeLineOptions = { widthPx: WIDTH, noiseQuantile: 0.3, smoothingLines: 30, speedGain: 1.37, speedExponent: 0.5 };

export const vfs5011: DriverDefinition = {
  id: 'vfs5011',
  name: 'Validity VFS5011',
  devices: [0x0010, 0x0011, 0x0015, 0x0017, 0x0018].map((productId) => ({ vendorId: 0x138a, productId })),
  sensor: 'swipe',
  widthPx: WIDTH,
  heightPx: 0,
  dpi: 600,
  create: (usb) => new Vfs5011Driver(usb),
};
