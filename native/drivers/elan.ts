/**
 * ELAN swipe-style area sensors (04f3:0903, 0c01-0c33 except 0c03 and 0c42, 0c3d, 0c4d, 0c4f, 0c63,
 * 0c6e; recorded: 0c26, 144x64 cells). Only 0c26 is verified; the other ids are listed as the same
 * family (see native/README.md).
 *
 * Protocol, as observed in ../shared/datasets/usb-captures/elan/capture.ioctl and described by that
 * recording's own comments (clean room: no other source): 2-byte commands on bulk OUT 0x01, replies
 * on bulk IN 0x83, frames on bulk IN 0x82.
 * - open: `40 19` -> 2 bytes (firmware version), `00 0C` -> 4 bytes (sensor size: byte 0 = 64 rows,
 *   byte 2 = 144 columns).
 * - calibration: `00 09` -> one frame (the background), `40 24` -> 2 bytes (the sensor's own mean,
 *   big-endian). When the two means differ by more than 10 % (recorded: 41 % before calibrating,
 *   0.5 % after), `40 23` is polled (1 byte, every 50 ms) until it has answered 01 and then 03, and
 *   the background and mean are read again (at most 10 polls).
 * - capture: `40 31` (LED on, no reply), then per frame `40 3F` -> 1 byte (0x55 = finger on) and
 *   `00 09` -> one frame; the first finger check waits without limit, later ones 200 ms: a check
 *   that times out ends the swipe. At most 30 frames. `00 0B` stops the sensor.
 * - frame: 18432 bytes, 144 columns of 64 little-endian 16-bit values (column after column).
 * Image (ours): each frame minus the background (clipped at 0), one contrast stretch over all frames
 * (0.1th..99.9th percentile -> 0..255, swipe-assembly.ts), inverted so ridges are dark; the last
 * DROPPED_LAST_FRAMES frames (the finger leaving) are left out; the rest are stitched by block
 * matching (swipe-assembly.ts, stitchFrames) on whole frames, then placed with EDGE_ROWS rows cut at
 * each frame's top and bottom, each frame over the earlier ones, on a canvas 1.5 frame widths wide
 * with the first frame centred. Frames are 144 wide and 64 high, the sensor's long side across the
 * swipe. The dropped frames, cut rows, canvas width, overlap rule and stretch quantiles were fitted
 * black-box to the one recording's capture.png (native/README.md). Resolution: not published; 600
 * dpi from the ridge period of the recorded print (native/ridge-period.ts, native/README.md).
 */
import { UsbTransferError, type UsbTransport } from '../usb/transport.js';
import { stitchFrames, stretchContrast } from './swipe-assembly.js';
import { CaptureRetryError, DriverProtocolError, expectLength, sleep, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';

const EP_CMD_OUT = 0x01;
const EP_CMD_IN = 0x83;
const EP_IMG_IN = 0x82;
const CMD_TIMEOUT_MS = 10_000;
const SWIPE_END_MS = 200;
const MIN_FRAMES = 5;
const MAX_FRAMES = 30;
const CALIBRATION_TOLERANCE = 0.1;
const CALIBRATION_POLLS = 10;
/** Frames left out at the end of a swipe (the finger leaving), rows cut at each frame's top and bottom. */
const DROPPED_LAST_FRAMES = 2;
const EDGE_ROWS = 6;

const CMD = {
  firmware: [0x40, 0x19],
  size: [0x00, 0x0c],
  frame: [0x00, 0x09],
  calibrationStatus: [0x40, 0x23],
  sensorMean: [0x40, 0x24],
  ledOn: [0x40, 0x31],
  fingerCheck: [0x40, 0x3f],
  stop: [0x00, 0x0b],
} as const;

class ElanDriver implements FingerprintDriver {
  private rows = 0;
  private columns = 0;
  private background: Uint16Array | undefined;

  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    await this.command(CMD.firmware, 2);
    const size = await this.command(CMD.size, 4);
    this.rows = size[0]!;
    this.columns = size[2]!;
    if (this.rows === 0 || this.columns === 0) throw new DriverProtocolError('elan', 'sensor reports a zero size');
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const { signal } = ctx;
    try {
      await this.calibrate(signal);
      await this.command(CMD.ledOn, 0, { signal });
      const frames: Float64Array[] = [];
      while (frames.length < MAX_FRAMES) {
        let finger: Uint8Array;
        try {
          finger = await this.command(CMD.fingerCheck, 1, { signal, timeoutMs: frames.length === 0 ? 0 : SWIPE_END_MS });
        } catch (e) {
          if (frames.length > 0 && e instanceof UsbTransferError && e.code === 'TIMEOUT') break;
          throw e;
        }
        if (finger[0] !== 0x55) throw new DriverProtocolError('elan', `finger check answered 0x${finger[0]?.toString(16)}`);
        if (frames.length === 0) ctx.fingerOn?.();
        frames.push(this.minusBackground(await this.readFrame(signal)));
      }
      ctx.fingerOff?.();
      if (frames.length < MIN_FRAMES) throw new CaptureRetryError('elan', 'TOO_SHORT', `swipe too short: ${frames.length} frames, need ${MIN_FRAMES}`);
      // One stretch for all frames keeps their grey levels comparable for the matching.
      const n = this.rows * this.columns;
      const all = new Float64Array(n * frames.length);
      frames.forEach((f, k) => all.set(f, k * n));
      const grey = stretchContrast(all, 0.001, 0.999);
      const list = frames.slice(0, frames.length - DROPPED_LAST_FRAMES).map((_, k) => invert(grey.subarray(k * n, (k + 1) * n)));
      const image = stitchFrames(list, this.columns, this.rows, {
        maxDx: 8,
        minOverlapRows: Math.ceil(this.rows / 4),
        background: 255,
        overlap: 'latest',
        edgeRows: EDGE_ROWS,
        canvasWidthPx: Math.round(1.5 * this.columns),
      });
      return { widthPx: image.widthPx, heightPx: image.heightPx, pixels: image.pixels, dpi: elan.dpi };
    } finally {
      await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(CMD.stop), { timeoutMs: CMD_TIMEOUT_MS }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  /** Sends a command and reads `replyBytes` from the reply endpoint (0: no reply; timeoutMs 0: none). */
  private async command(cmd: readonly number[], replyBytes: number, io: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Uint8Array> {
    await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(cmd), { timeoutMs: CMD_TIMEOUT_MS, signal: io.signal });
    if (replyBytes === 0) return new Uint8Array(0);
    const reply = await this.usb.bulkIn(EP_CMD_IN, replyBytes, { timeoutMs: io.timeoutMs ?? CMD_TIMEOUT_MS, signal: io.signal });
    expectLength('elan', reply, replyBytes, `reply to ${Buffer.from(cmd).toString('hex')}`);
    return reply;
  }

  /** One frame as rows x columns values, row-major (row = position along the swipe). */
  private async readFrame(signal?: AbortSignal): Promise<Uint16Array> {
    await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(CMD.frame), { timeoutMs: CMD_TIMEOUT_MS, signal });
    const bytes = this.rows * this.columns * 2;
    const data = await this.usb.bulkIn(EP_IMG_IN, bytes, { timeoutMs: CMD_TIMEOUT_MS, signal });
    expectLength('elan', data, bytes, 'frame');
    const frame = new Uint16Array(this.rows * this.columns);
    for (let c = 0; c < this.columns; c++) {
      for (let r = 0; r < this.rows; r++) {
        const at = 2 * (c * this.rows + r);
        frame[r * this.columns + c] = data[at]! | (data[at + 1]! << 8);
      }
    }
    return frame;
  }

  private minusBackground(frame: Uint16Array): Float64Array {
    const bg = this.background!;
    const out = new Float64Array(frame.length);
    let any = false;
    for (let i = 0; i < frame.length; i++) {
      out[i] = Math.max(0, frame[i]! - bg[i]!);
      any ||= out[i]! > 0;
    }
    if (!any) throw new CaptureRetryError('elan', 'REMOVE_FINGER', 'frame no brighter than the background: was the finger on the sensor during calibration?');
    return out;
  }

  /** Reads the background; recalibrates the sensor when its own mean disagrees with it (see the file comment). */
  private async calibrate(signal?: AbortSignal): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      this.background = await this.readFrame(signal);
      const m = await this.command(CMD.sensorMean, 2, { signal });
      const sensorMean = (m[0]! << 8) | m[1]!;
      const ourMean = this.background.reduce((s, v) => s + v, 0) / this.background.length;
      if (Math.abs(ourMean - sensorMean) <= CALIBRATION_TOLERANCE * sensorMean) return;
      if (attempt > 0) throw new DriverProtocolError('elan', `calibration failed: sensor mean ${sensorMean}, background mean ${ourMean.toFixed(0)}`);
      let seenBusy = false;
      for (let poll = 0; ; poll++) {
        if (poll === CALIBRATION_POLLS) throw new DriverProtocolError('elan', 'calibration did not finish');
        const status = (await this.command(CMD.calibrationStatus, 1, { signal }))[0];
        if (status === 0x01) seenBusy = true;
        else if (status === 0x03 && seenBusy) break;
        await sleep(50, signal);
      }
    }
  }
}

function invert(p: Uint8Array): Uint8Array {
  return p.map((v) => 255 - v);
}

const ELAN_PIDS = [
  0x0903, ...Array.from({ length: 0x33 }, (_, i) => 0x0c01 + i), 0x0c3d, 0x0c4d, 0x0c4f, 0x0c63, 0x0c6e,
].filter((pid) => pid !== 0x0c03 && pid !== 0x0c42);

export const elan: DriverDefinition = {
  id: 'elan',
  name: 'ELAN fingerprint sensor',
  devices: ELAN_PIDS.map((productId) => ({ vendorId: 0x04f3, productId })),
  sensor: 'swipe',
  widthPx: 0,
  heightPx: 0,
  dpi: 600,
  create: (usb) => new ElanDriver(usb),
};
