/**
 * NEXT Biometrics NB-1010-U (298d:1010), press sensor, 256x180 pixels, 8-bit grey.
 * Protocol: ../shared/datasets/usb-captures/PROTOCOLS.md §2.1 (verified on the recording):
 * bulk OUT 0x02 commands `80 cmd seq 00 | u32 LE total length | payload`, bulk IN 0x83 replies
 * `80 code seq 00 | u32 LE length`. Capture = finger poll (0x38, reply byte 12 = finger level,
 * present above 0x30), pre-capture (0x0D), capture (0x12), then 90 chunks of 540 bytes, each a
 * 25-byte header, two 256-pixel rows and a 3-byte trailer. No post-processing.
 * Resolution: the vendor states none in the protocol; we state the nominal 500 dpi (see native/README.md).
 */
import type { UsbTransport } from '../usb/transport.js';
import { DriverProtocolError, expectLength, sleep, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';

const EP_OUT = 0x02;
const EP_IN = 0x83;
const TIMEOUT_MS = 500;
const POLL_DELAY_MS = 50;
const WIDTH = 256;
const HEIGHT = 180;
const ROWS_PER_CHUNK = 2;
const CHUNK_BYTES = 540;
const CHUNK_HEADER_BYTES = 25;
const FINGER_LEVEL_BYTE = 12;
const FINGER_PRESENT_ABOVE = 0x30;

const CMD_CHECK_FINGER = Uint8Array.from([0x80, 0x38, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00]);
const CMD_PRECAPTURE = Uint8Array.from([0x80, 0x0d, 0x03, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00]);
const CMD_CAPTURE = Uint8Array.from([
  0x80, 0x12, 0x04, 0x00, 0x20, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, ...new Array<number>(16).fill(0), 0x20, 0x00, 0x00, 0x00,
]);

class Nb1010Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const io = { timeoutMs: TIMEOUT_MS, signal: ctx.signal };
    // 1. Poll until the finger level exceeds the threshold.
    for (;;) {
      await this.usb.bulkOut(EP_OUT, CMD_CHECK_FINGER, io);
      const reply = await this.reply(0x37, io);
      if (reply[FINGER_LEVEL_BYTE]! > FINGER_PRESENT_ABOVE) break;
      await sleep(POLL_DELAY_MS, ctx.signal);
    }
    ctx.fingerOn?.();
    // 2. Pre-capture and capture commands, each acknowledged.
    await this.usb.bulkOut(EP_OUT, CMD_PRECAPTURE, io);
    await this.reply(0x20, io);
    await this.usb.bulkOut(EP_OUT, CMD_CAPTURE, io);
    await this.reply(0x20, io);
    // 3. 90 chunks of two rows each, top-down.
    const pixels = new Uint8Array(WIDTH * HEIGHT);
    for (let chunk = 0; chunk < HEIGHT / ROWS_PER_CHUNK; chunk++) {
      const data = await this.usb.bulkIn(EP_IN, CHUNK_BYTES, io);
      expectLength('nb1010', data, CHUNK_BYTES, `image chunk ${chunk}`);
      if (data[0] !== 0x80 || data[1] !== 0x21) throw new DriverProtocolError('nb1010', `image chunk ${chunk}: bad header ${data[0]?.toString(16)} ${data[1]?.toString(16)}`);
      pixels.set(data.subarray(CHUNK_HEADER_BYTES, CHUNK_HEADER_BYTES + ROWS_PER_CHUNK * WIDTH), chunk * ROWS_PER_CHUNK * WIDTH);
    }
    return { widthPx: WIDTH, heightPx: HEIGHT, pixels, dpi: nb1010.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  /** Reads a 16-byte reply and checks its frame start and code. */
  private async reply(code: number, io: { timeoutMs: number; signal?: AbortSignal }): Promise<Uint8Array> {
    const reply = await this.usb.bulkIn(EP_IN, 16, io);
    expectLength('nb1010', reply, 16, `reply 0x${code.toString(16)}`);
    if (reply[0] !== 0x80 || reply[1] !== code) {
      throw new DriverProtocolError('nb1010', `expected reply 0x${code.toString(16)}, got ${reply[0]?.toString(16)} ${reply[1]?.toString(16)}`);
    }
    return reply;
  }
}

export const nb1010: DriverDefinition = {
  id: 'nb1010',
  name: 'NEXT Biometrics NB-1010-U',
  devices: [{ vendorId: 0x298d, productId: 0x1010 }],
  sensor: 'press',
  widthPx: WIDTH,
  heightPx: HEIGHT,
  dpi: 500,
  create: (usb) => new Nb1010Driver(usb),
};
