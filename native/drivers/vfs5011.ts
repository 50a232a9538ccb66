/**
 * Validity VFS5011 and relatives (138a:0010, 0011, 0015, 0017, 0018), two-line swipe sensor, lines of
 * 160 pixels. Protocol after libfprint's vfs5011 driver (LGPL-2.1, snapshot 1f5e082): bulk OUT 0x01,
 * control replies on bulk IN 0x81 (`00 00` = OK), data on bulk IN 0x82. Open runs the init program
 * (vfs5011-commands.ts); each capture runs the "initiate capture" program, then reads chunks of 256
 * lines x 240 bytes (pixels at bytes 8..167) without timeout until 50 empty lines follow the finger
 * (squared deviation below 15^2), or 2000 distinct lines are kept (a line is kept when its mean squared
 * difference to the last kept line is at least 600).
 * Image: line assembly (assembling.ts: swipe speed from the best matching later line, median filter
 * of 25, resolution 10 output lines per line of offset), flipped vertically; 160 pixels wide.
 * Resolution: not published; the line spacing is estimated by the assembly, so the image is
 * nominally 500 dpi (libfprint's default; unverified).
 */
import type { UsbTransport } from '../usb/transport.js';
import { assembleLines } from './assembling.js';
import { CaptureRetryError, DriverProtocolError, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import * as C from './vfs5011-commands.js';

const EP_OUT = 0x01;
const EP_CTRL = 0x81;
const EP_DATA = 0x82;
const WAIT_TIMEOUT_MS = 3000;
const LINE_BYTES = 240;
const WIDTH = 160;
const CAPTURE_LINES = 256;
const MAX_LINES = 2000;
const MAX_CAPTURE_LINES = 100_000;
const DEVIATION_THRESHOLD = 15 * 15;
const DIFFERENCE_THRESHOLD = 600;
const STOP_CHECK_LINES = 50;

/** One step of a command program: send a blob, read (optionally expecting `00 00`). */
type Step = { send: string } | { recv: number; ep: number; expectOk?: boolean };
const send = (hex: string): Step => ({ send: hex });
const recv = (ep: number, bytes: number): Step => ({ recv: bytes, ep });
const ok = (bytes = 64): Step => ({ recv: bytes, ep: EP_CTRL, expectOk: true });

const INIT: Step[] = [
  send(C.cmd_01), recv(EP_CTRL, 64), send(C.cmd_19), recv(EP_CTRL, 64), recv(EP_CTRL, 64),
  send(C.init_00), recv(EP_CTRL, 64), send(C.init_01), recv(EP_CTRL, 64), send(C.init_02), ok(),
  send(C.cmd_01), recv(EP_CTRL, 64), send(C.cmd_1A), ok(), send(C.init_03), ok(), send(C.init_04), ok(),
  recv(EP_DATA, 256), recv(EP_DATA, 64), send(C.cmd_1A), ok(), send(C.init_05), ok(),
  send(C.cmd_01), recv(EP_CTRL, 64), send(C.init_06), ok(), recv(EP_DATA, 17216), recv(EP_DATA, 32),
  send(C.init_07), ok(), recv(EP_DATA, 45056), send(C.init_08), ok(), recv(EP_DATA, 16896),
  send(C.init_09), ok(), recv(EP_DATA, 4928), send(C.init_10), ok(), recv(EP_DATA, 5632),
  send(C.init_11), ok(), recv(EP_DATA, 5632), send(C.init_12), ok(), recv(EP_DATA, 3328), recv(EP_DATA, 64),
  send(C.init_13), ok(), send(C.cmd_1A), ok(), send(C.init_03), ok(), send(C.init_14), ok(), recv(EP_DATA, 4800),
  send(C.cmd_1A), ok(), send(C.init_02), ok(), send(C.cmd_27), recv(EP_CTRL, 64), send(C.cmd_1A), ok(),
  send(C.init_15), ok(), send(C.init_16), recv(EP_CTRL, 2368), recv(EP_CTRL, 64), recv(EP_DATA, 4800),
  send(C.init_17), ok(), send(C.init_18), ok(),
];

const INITIATE_CAPTURE: Step[] = [
  send(C.cmd_04), recv(EP_DATA, 64), recv(EP_DATA, 84032), ok(), send(C.cmd_1A), ok(),
  send(C.prepare_00), ok(), send(C.cmd_1A), ok(), send(C.prepare_01), ok(),
  send(C.prepare_02), recv(EP_CTRL, 2368), recv(EP_CTRL, 64), recv(EP_DATA, 4800),
  send(C.prepare_03), ok(), send(C.prepare_04), ok(2368),
];

/** Squared standard deviation of the pixels (fpi_std_sq_dev). */
function stdSqDev(buf: Uint8Array): number {
  let mean = 0;
  for (const v of buf) mean += v;
  mean = Math.floor(mean / buf.length);
  let res = 0;
  for (const v of buf) res += (v - mean) * (v - mean);
  return Math.floor(res / buf.length);
}

/** Mean squared difference of two lines (fpi_mean_sq_diff_norm). */
function meanSqDiff(a: Uint8Array, b: Uint8Array): number {
  let res = 0;
  for (let i = 0; i < a.length; i++) res += (a[i]! - b[i]!) * (a[i]! - b[i]!);
  return Math.trunc(res / a.length);
}

/** Squared deviation of the sum of two lines' overlapping 64-pixel windows (vfs5011_get_deviation2). */
function deviation2(row1: Uint8Array, row2: Uint8Array): number {
  const size = 64;
  let mean = 0;
  for (let i = 0; i < size; i++) mean += row1[56 + i]! + row2[168 + i]!;
  mean = Math.trunc(mean / size);
  let res = 0;
  for (let i = 0; i < size; i++) {
    const dev = row1[56 + i]! + row2[168 + i]! - mean;
    res += dev * dev;
  }
  return Math.trunc(res / size);
}

class Vfs5011Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    await this.run(INIT, WAIT_TIMEOUT_MS);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    await this.run(INITIATE_CAPTURE, 1000, ctx.signal);
    const rows: Uint8Array[] = [];
    let lastLine: Uint8Array | undefined;
    let linesCaptured = 0;
    let emptyLines = 0;
    let fingerReported = false;
    reading: for (;;) {
      // Blocks until the sensor has lines: no timeout of its own, the caller's signal ends it.
      const chunk = await this.usb.bulkIn(EP_DATA, CAPTURE_LINES * LINE_BYTES, { signal: ctx.signal });
      if (chunk.length > 0 && !fingerReported) {
        fingerReported = true;
        ctx.fingerOn?.();
      }
      const lines = Math.trunc(chunk.length / LINE_BYTES);
      for (let i = 0; i < lines; i++) {
        const line = chunk.subarray(i * LINE_BYTES, (i + 1) * LINE_BYTES);
        if (stdSqDev(line.subarray(8, 8 + WIDTH)) < DEVIATION_THRESHOLD) {
          if (linesCaptured === 0) continue;
          emptyLines++;
        } else {
          emptyLines = 0;
        }
        if (emptyLines >= STOP_CHECK_LINES) break reading;
        linesCaptured++;
        if (linesCaptured > MAX_CAPTURE_LINES) break reading;
        if (!lastLine || meanSqDiff(lastLine.subarray(8, 8 + WIDTH), line.subarray(8, 8 + WIDTH)) >= DIFFERENCE_THRESHOLD) {
          lastLine = line.slice();
          rows.push(lastLine);
          if (rows.length >= MAX_LINES) break reading;
        }
      }
    }
    ctx.fingerOff?.();
    if (rows.length < WIDTH) throw new CaptureRetryError('vfs5011', 'TOO_SHORT', `swipe too short: ${rows.length} lines, need ${WIDTH}`);
    const image = assembleLines(
      {
        lineWidthPx: WIDTH,
        maxHeightPx: MAX_LINES,
        resolution: 10,
        medianFilterSize: 25,
        maxSearchOffset: 30,
        deviation: deviation2,
        pixel: (line, x) => line[8 + x]!,
      },
      rows,
      rows.length,
    );
    return { ...image, dpi: vfs5011.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  private async run(program: Step[], timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const io = { timeoutMs, signal };
    for (const [i, step] of program.entries()) {
      if ('send' in step) {
        await this.usb.bulkOut(EP_OUT, new Uint8Array(Buffer.from(step.send, 'hex')), io);
        continue;
      }
      const reply = await this.usb.bulkIn(step.ep, step.recv, io);
      if (step.expectOk && (reply.length !== 2 || reply[0] !== 0 || reply[1] !== 0)) {
        throw new DriverProtocolError('vfs5011', `step ${i}: expected the reply 0000, got ${Buffer.from(reply.subarray(0, 8)).toString('hex')} (${reply.length} bytes)`);
      }
    }
  }
}

export const vfs5011: DriverDefinition = {
  id: 'vfs5011',
  name: 'Validity VFS5011',
  devices: [0x0010, 0x0011, 0x0015, 0x0017, 0x0018].map((productId) => ({ vendorId: 0x138a, productId })),
  sensor: 'swipe',
  widthPx: WIDTH,
  heightPx: 0,
  dpi: 500,
  create: (usb) => new Vfs5011Driver(usb),
};
