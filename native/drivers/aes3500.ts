/**
 * AuthenTec AES3500 TruePrint (08ff:5731), press sensor, 128x128 cells at 4 bits per pixel.
 * Protocol: ../shared/datasets/usb-captures/PROTOCOLS.md §2.3 (verified) and libfprint's aes3k/aeslib:
 * bulk OUT 0x02 carries (register, value) pairs, at most 16 per transfer (a register 0 entry splits
 * transfers); after the capture writes, one 8329-byte bulk IN read on 0x81 blocks until a finger is
 * present and returns 8 strips `E0+i` + 1024 bytes (128 columns x 16 rows, column-major, low nibble =
 * even row, high nibble = odd row, value x 17), then 129 bytes of register echo.
 * Post-processing (documented, reproduced exactly): 2x bilinear enlargement as pixman does it
 * (zero outside the image, 8-bit weights, truncation) to 256x256, then both axes flipped and grey
 * levels inverted so ridges are dark.
 * Resolution: the enlarged image is treated as 500 dpi (native 250 dpi: 128 cells over the sensor's
 * ~13 mm; inferred, as libfprint's 2x "for NBIS" enlargement implies).
 */
import type { UsbTransport } from '../usb/transport.js';
import { DriverProtocolError, expectLength, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';

const EP_OUT = 0x02;
const EP_IN = 0x81;
const TIMEOUT_MS = 4000;
const FRAME_WIDTH = 128;
const STRIP_ROWS = 16;
const STRIPS = FRAME_WIDTH / STRIP_ROWS;
const STRIP_BYTES = (FRAME_WIDTH * STRIP_ROWS) / 2;
const DATA_BYTES = 0x2089;
const MAX_REGWRITES_PER_TRANSFER = 16;

/** (register, value) pairs; [0, 0] forces a new transfer. From libfprint aes3500.c (init_reqs). */
const INIT: Array<[number, number]> = [
  [0x80, 0x01], [0, 0], [0x80, 0x00], [0, 0], // master reset
  [0x81, 0x00], [0x80, 0x00], [0, 0],
  [0x80, 0x02], [0, 0], [0x80, 0x00], [0, 0], // scan reset
  [0x80, 0x04], [0, 0], [0x80, 0x00], [0, 0], // disable register buffering
  [0x81, 0x00], [0, 0],
  [0x80, 0x00], [0x81, 0x00], [0x82, 0x04], [0x83, 0x13], [0x84, 0x07], [0x85, 0x3d], [0x86, 0x03], [0x87, 0x01],
  [0x88, 0x02], [0x89, 0x02], [0x8a, 0x33], [0x8b, 0x33], [0x8c, 0x0f], [0x8d, 0x04], [0x8e, 0x23], [0x8f, 0x07],
  [0x90, 0x00], [0x91, 0x1c], [0x92, 0x08], [0x93, 0x00], [0x94, 0x07], [0x95, 0x00], [0x96, 0x1f], [0x97, 0x04],
  [0x98, 0x28], [0x99, 0x00], [0x9a, 0x0b], [0x9b, 0x00], [0x9c, 0x00], [0x9d, 0x09], [0x9e, 0x53], [0x9f, 0x6b],
  [0, 0],
];
const CAPTURE: Array<[number, number]> = [[0x80, 0x00], [0x81, 0x00], [0, 0], [0x81, 0x04], [0, 0], [0x81, 0x00]];

/** Splits a register list into transfers as AuthenTec's drivers do (aeslib `aes_write_regv`). */
export function registerWriteTransfers(regs: Array<[number, number]>): Uint8Array[] {
  const transfers: Uint8Array[] = [];
  let batch: number[] = [];
  const flush = () => {
    if (batch.length) transfers.push(Uint8Array.from(batch));
    batch = [];
  };
  for (const [reg, value] of regs) {
    if (reg === 0) {
      flush();
      continue;
    }
    batch.push(reg, value);
    if (batch.length === MAX_REGWRITES_PER_TRANSFER * 2) flush();
  }
  flush();
  return transfers;
}

/** Unpacks the 4-bit strips into a 128x128 image (AES3K frame assembly). */
export function assembleAes3kFrame(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_WIDTH * FRAME_WIDTH);
  for (let strip = 0; strip < STRIPS; strip++) {
    const start = strip * (STRIP_BYTES + 1);
    if (data[start] !== 0xe0 + strip) {
      throw new DriverProtocolError('aes3500', `strip ${strip}: header 0x${data[start]?.toString(16)} instead of 0x${(0xe0 + strip).toString(16)}`);
    }
    let p = start + 1;
    const base = strip * FRAME_WIDTH * STRIP_ROWS;
    for (let column = 0; column < FRAME_WIDTH; column++) {
      for (let row = 0; row < STRIP_ROWS; row += 2) {
        const b = data[p++]!;
        out[base + FRAME_WIDTH * row + column] = (b & 0x0f) * 17;
        out[base + FRAME_WIDTH * (row + 1) + column] = (b >> 4) * 17;
      }
    }
  }
  return out;
}

/**
 * Enlarges by 2 in both axes as pixman's bilinear filter does (used by libfprint's
 * `fpi_image_resize`): destination pixel centre (x+0.5)/2 in source space, neighbours outside
 * the image read as 0, weights quantised to 1/256, result truncated.
 */
export function enlarge2xPixman(src: Uint8Array, width: number, height: number): Uint8Array {
  const w2 = width * 2;
  const h2 = height * 2;
  const out = new Uint8Array(w2 * h2);
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : src[y * width + x]!);
  for (let y = 0; y < h2; y++) {
    // (y + 0.5) / 2 - 0.5 = y/2 - 0.25: even y -> (y/2 - 1) + 0.75, odd y -> (y-1)/2 + 0.25
    const y0 = y % 2 === 0 ? y / 2 - 1 : (y - 1) / 2;
    const dy = y % 2 === 0 ? 192 : 64;
    for (let x = 0; x < w2; x++) {
      const x0 = x % 2 === 0 ? x / 2 - 1 : (x - 1) / 2;
      const dx = x % 2 === 0 ? 192 : 64;
      const dxy = dx * dy;
      const tl = at(x0, y0) * (65536 - (dx << 8) - (dy << 8) + dxy);
      const tr = at(x0 + 1, y0) * ((dx << 8) - dxy);
      const bl = at(x0, y0 + 1) * ((dy << 8) - dxy);
      const br = at(x0 + 1, y0 + 1) * dxy;
      out[y * w2 + x] = (tl + tr + bl + br) >>> 16;
    }
  }
  return out;
}

class Aes3500Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    for (const t of registerWriteTransfers(INIT)) await this.usb.bulkOut(EP_OUT, t, { timeoutMs: TIMEOUT_MS });
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    for (const t of registerWriteTransfers(CAPTURE)) await this.usb.bulkOut(EP_OUT, t, { timeoutMs: TIMEOUT_MS, signal: ctx.signal });
    // Blocks until a finger is on the sensor: no timeout of its own, the caller's signal ends it.
    const data = await this.usb.bulkIn(EP_IN, DATA_BYTES, { signal: ctx.signal });
    expectLength('aes3500', data, DATA_BYTES, 'image read');
    ctx.fingerOn?.();
    const frame = assembleAes3kFrame(data);
    const big = enlarge2xPixman(frame, FRAME_WIDTH, FRAME_WIDTH);
    const size = FRAME_WIDTH * 2;
    // Flip both axes (= rotate 180 degrees) and invert.
    const pixels = new Uint8Array(size * size);
    for (let i = 0; i < pixels.length; i++) pixels[i] = 255 - big[pixels.length - 1 - i]!;
    // The protocol has no finger-off report; libfprint assumes the finger gone after the image.
    return { widthPx: size, heightPx: size, pixels, dpi: aes3500.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }
}

export const aes3500: DriverDefinition = {
  id: 'aes3500',
  name: 'AuthenTec AES3500 TruePrint',
  devices: [{ vendorId: 0x08ff, productId: 0x5731 }],
  sensor: 'press',
  widthPx: 256,
  heightPx: 256,
  dpi: 500,
  create: (usb) => new Aes3500Driver(usb),
};
