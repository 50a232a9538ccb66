/**
 * ELAN swipe-style area sensors (04f3:0903, 0c01-0c33, 0c3d, 0c4d, 0c4f, 0c63, 0c6e; recorded: 0c26,
 * a 144x64 sensor). Protocol after libfprint's elan driver (LGPL-2.1, snapshot 1f5e082; the
 * commands are in the recording's comments): 2-byte commands on bulk OUT 0x01, replies on bulk IN
 * 0x83, raw frames (u16 little-endian, 14-bit ADC, portrait) on bulk IN 0x82.
 * Open: firmware version (40 19), sensor size (00 0C). Capture: calibration (background frame
 * 00 09, calibration mean 40 24; when background and mean differ by more than 500, the status
 * 40 23 is polled every 50 ms until it goes 01 then 03, and the background is taken again), LED on
 * (40 31), then per frame: finger check (40 3F, 0x55 = finger) and frame read (00 09), until 30
 * frames or the finger check times out (200 ms after the first frame); stop (00 0B).
 * Image: background subtracted, each frame rotated to landscape with 7-row margins cut (50 rows),
 * the last two frames dropped, each frame mapped to 8 bits by intensity thirds (35/30/35 % of
 * pixels -> 0-99 / 99-155 / 155-255), frames assembled by movement estimation (assembling.ts) into a
 * 216-wide image, inverted and rotated as libfprint normalises it.
 * Resolution: not published for these sensors; we state libfprint's nominal 500 dpi (unverified).
 */
import { UsbTransferError, type UsbTransport } from '../usb/transport.js';
import { assembleFrames, estimateMovement, type Frame } from './assembling.js';
import { CaptureRetryError, DriverProtocolError, expectLength, sleep, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';

const EP_CMD_OUT = 0x01;
const EP_CMD_IN = 0x83;
const EP_IMG_IN = 0x82;
const CMD_TIMEOUT_MS = 10_000;
const FINGER_TIMEOUT_MS = 200;
const MIN_FRAMES = 7;
const MAX_FRAMES = 30;
const MAX_FRAME_HEIGHT = 50;
const SKIP_LAST_FRAMES = 2;
const CALIBRATION_MAX_DELTA = 500;
const CALIBRATION_ATTEMPTS = 10;
const MIN_CALIBRATION_FW = 0x0138;

const CMD = {
  fwVersion: [0x40, 0x19],
  sensorDim: [0x00, 0x0c],
  getImage: [0x00, 0x09],
  calibStatus: [0x40, 0x23],
  calibMean: [0x40, 0x24],
  ledOn: [0x40, 0x31],
  preScan: [0x40, 0x3f],
  stop: [0x00, 0x0b],
} as const;

/** Maps a background-subtracted frame to 8 bits by intensity thirds (elan_process_frame_thirds). */
export function elanThirds(raw: Uint16Array): Uint8Array {
  const n = raw.length;
  const sorted = Uint16Array.from(raw).sort();
  const lvl0 = sorted[0]!;
  const lvl1 = sorted[Math.trunc((n * 3) / 10)]!;
  const lvl2 = sorted[Math.trunc((n * 65) / 100)]!;
  const lvl3 = sorted[n - 1]!;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const px = raw[i]!;
    let v: number;
    if (lvl0 <= px && px < lvl1) v = Math.trunc(((px - lvl0) * 99) / (lvl1 - lvl0));
    else if (lvl1 <= px && px < lvl2) v = 99 + Math.trunc(((px - lvl1) * 56) / (lvl2 - lvl1));
    else v = lvl3 === lvl2 ? 155 : 155 + Math.trunc(((px - lvl2) * 100) / (lvl3 - lvl2));
    out[i] = v & 0xff;
  }
  return out;
}

class ElanDriver implements FingerprintDriver {
  private frameWidth = 0;
  private frameHeight = 0;
  private rawHeight = 0;
  private fwVersion = 0;
  private background: Uint16Array | undefined;

  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    const fw = await this.command(CMD.fwVersion, 2);
    this.fwVersion = (fw[0]! << 8) | fw[1]!;
    const dim = await this.command(CMD.sensorDim, 4);
    // Rotated sensors (all but 0c03, not handled here): width from byte 2, height from byte 0.
    this.frameWidth = dim[2]!;
    this.frameHeight = this.rawHeight = dim[0]!;
    if (this.frameWidth % 2 === 1 && this.frameHeight % 2 === 1) {
      this.frameWidth++; // some sensors report the last index instead of the size
      this.frameHeight = this.rawHeight = this.frameHeight + 1;
    }
    if (this.frameWidth === 0 || this.rawHeight === 0) throw new DriverProtocolError('elan', 'sensor reports a zero size');
    this.frameHeight = Math.min(this.frameHeight, MAX_FRAME_HEIGHT);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const { signal } = ctx;
    try {
      await this.calibrate(signal);
      await this.command(CMD.ledOn, 0, { signal });
      const frames: Uint16Array[] = [];
      const timeoutMs = FINGER_TIMEOUT_MS;
      while (frames.length < MAX_FRAMES) {
        let finger: Uint8Array;
        try {
          // The first check waits for the finger without limit (the caller's timeout or signal ends it).
          finger = await this.command(CMD.preScan, 1, { signal, timeoutMs: frames.length === 0 ? 0 : timeoutMs });
        } catch (e) {
          // After the first frame, a finger check that times out means the swipe ended.
          if (frames.length > 0 && e instanceof UsbTransferError && e.code === 'TIMEOUT') break;
          throw e;
        }
        if (finger[0] !== 0x55) throw new DriverProtocolError('elan', `finger check answered 0x${finger[0]?.toString(16)} (0xff: not calibrated)`);
        if (frames.length === 0) ctx.fingerOn?.();
        frames.push(this.subtractBackground(await this.readFrame(signal)));
      }
      ctx.fingerOff?.();
      if (frames.length < MIN_FRAMES) throw new CaptureRetryError('elan', 'TOO_SHORT', `swipe too short: ${frames.length} frames, need ${MIN_FRAMES}`);
      // Frames newest first, skip the two newest, then back to oldest first (as libfprint's lists do).
      const used = frames.slice(0, frames.length - SKIP_LAST_FRAMES);
      const list: Frame[] = used.map((f) => ({ pixels: elanThirds(f), deltaX: 0, deltaY: 0 }));
      estimateMovement(this.frameWidth, this.frameHeight, list);
      const image = assembleFrames(this.frameWidth, this.frameHeight, Math.trunc((this.frameWidth * 3) / 2), list);
      return { ...image, dpi: elan.dpi };
    } finally {
      await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(CMD.stop), { timeoutMs: CMD_TIMEOUT_MS }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  /** Sends a command and reads `replyBytes` from the command endpoint (0: no reply); reply timeout 0 = none. */
  private async command(cmd: readonly number[], replyBytes: number, io: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Uint8Array> {
    const opts = { timeoutMs: io.timeoutMs ?? CMD_TIMEOUT_MS, signal: io.signal };
    await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(cmd), { timeoutMs: CMD_TIMEOUT_MS, signal: io.signal });
    if (replyBytes === 0) return new Uint8Array(0);
    const reply = await this.usb.bulkIn(EP_CMD_IN, replyBytes, opts);
    expectLength('elan', reply, replyBytes, `reply to ${cmd.map((b) => b.toString(16).padStart(2, '0')).join('')}`);
    return reply;
  }

  /** Reads one raw frame and returns it in landscape orientation, margins cut. */
  private async readFrame(signal?: AbortSignal): Promise<Uint16Array> {
    await this.usb.bulkOut(EP_CMD_OUT, Uint8Array.from(CMD.getImage), { timeoutMs: CMD_TIMEOUT_MS, signal });
    const bytes = this.rawHeight * this.frameWidth * 2;
    const data = await this.usb.bulkIn(EP_IMG_IN, bytes, { timeoutMs: CMD_TIMEOUT_MS, signal });
    expectLength('elan', data, bytes, 'frame');
    const raw = new Uint16Array(data.length / 2);
    for (let i = 0; i < raw.length; i++) raw[i] = data[2 * i]! | (data[2 * i + 1]! << 8);
    const margin = Math.trunc((this.rawHeight - this.frameHeight) / 2);
    const frame = new Uint16Array(this.frameWidth * this.frameHeight);
    for (let y = 0; y < this.frameHeight; y++) {
      for (let x = 0; x < this.frameWidth; x++) frame[x + y * this.frameWidth] = raw[margin + y + x * this.rawHeight]!;
    }
    return frame;
  }

  private subtractBackground(frame: Uint16Array): Uint16Array {
    const bg = this.background!;
    let sum = 0;
    for (let i = 0; i < frame.length; i++) {
      frame[i] = bg[i]! > frame[i]! ? 0 : frame[i]! - bg[i]!;
      sum += frame[i]!;
    }
    if (sum === 0) throw new CaptureRetryError('elan', 'REMOVE_FINGER', 'frame darker than the background: finger present during calibration?');
    return frame;
  }

  /** Background frame, and the sensor's own calibration when its mean drifted from the background. */
  private async calibrate(signal?: AbortSignal): Promise<void> {
    let attemptsLeft = CALIBRATION_ATTEMPTS;
    for (;;) {
      this.background = await this.readFrame(signal);
      if (this.fwVersion < MIN_CALIBRATION_FW) return;
      const mean = await this.command(CMD.calibMean, 2, { signal });
      const calibMean = mean[0]! * 0xff + mean[1]!; // sic: 0xff, as the vendor's driver computes it
      let bgSum = 0;
      for (const v of this.background) bgSum += v;
      const bgMean = Math.trunc(bgSum / this.background.length);
      if (Math.abs(bgMean - calibMean) <= CALIBRATION_MAX_DELTA) return;
      // Wait for the status to go 0x01 (calibrating) and then 0x03 (done).
      let status = 0;
      for (;;) {
        attemptsLeft--;
        if (attemptsLeft === 0) throw new DriverProtocolError('elan', 'calibration failed');
        const reply = await this.command(CMD.calibStatus, 1, { signal });
        if (status === 0x01 && reply[0] === 0x03) break;
        if (status === 0x00 && reply[0] === 0x01) status = 0x01;
        await sleep(50, signal);
      }
    }
  }
}

const ELAN_PIDS = [
  0x0903, ...Array.from({ length: 0x33 }, (_, i) => 0x0c01 + i), 0x0c3d, 0x0c4d, 0x0c4f, 0x0c63, 0x0c6e,
].filter((pid) => pid !== 0x0c03 && pid !== 0x0c42); // 0c03 (not rotated) and 0c42 (other replies) are not handled

export const elan: DriverDefinition = {
  id: 'elan',
  name: 'ELAN fingerprint sensor',
  devices: ELAN_PIDS.map((productId) => ({ vendorId: 0x04f3, productId })),
  sensor: 'swipe',
  widthPx: 216,
  heightPx: 0,
  dpi: 500,
  create: (usb) => new ElanDriver(usb),
};
