/**
 * AuthenTec AES3500 TruePrint (08ff:5731), press sensor, 128x128 cells at 4 bits per pixel.
 *
 * Protocol (clean room): ../shared/datasets/usb-captures/PROTOCOLS.md §2.3 and the recording
 * usb-captures/aes3500/capture.ioctl. Every OUT transfer on bulk 0x02 is a list of (register, value)
 * byte pairs; the transfers are the ones observed in the recording (extracted by
 * native/tools/extract-commands.ts into observed/aes3500-out.ts, keyed by recording line) in the
 * order PROTOCOLS.md gives. After the capture writes, one 8329-byte bulk IN read on 0x81 blocks
 * until a finger is present and returns 8 strips `E0+i` + 1024 bytes (128 columns x 16 rows,
 * column-major, low nibble = even row, high nibble = odd row, value x 17), then 129 bytes of what
 * look like register pairs (not used).
 * Post-processing (ours, measured against capture.png in native/README.md): 2x bilinear enlargement
 * to 256x256 (textbook bilinear interpolation at pixel centres, edge pixels repeated, rounded; e.g.
 * R. C. Gonzalez, R. E. Woods, "Digital Image Processing", 4th ed., §2.4), then the image turned by
 * 180 degrees and its grey levels inverted so ridges are dark (the orientation and polarity of the
 * recording's capture.png).
 * Resolution: not published. The enlarged image is stated as 1100 dpi (550 native): its ridge period,
 * 19.3 px, is what a 500 dpi print shows as 8.9 px (native/ridge-period.ts; native/README.md).
 */
import type { UsbTransport } from '../usb/transport.js';
import { DriverProtocolError, expectLength, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import { OUT } from './observed/aes3500-out.js';

const EP_OUT = 0x02;
const EP_IN = 0x81;
const TIMEOUT_MS = 4000;
const SIDE = 128;
const STRIP_ROWS = 16;
const STRIP_BYTES = (SIDE * STRIP_ROWS) / 2;
const DATA_BYTES = 8329;

type Key = keyof typeof OUT;
/** PROTOCOLS.md §2.3: 8001, 8000, 81008000, 8002, 8000, 8004, 8000, 8100, 8000..8F07, 9000..9F6B. */
const INIT: Key[] = ['L3', 'L4', 'L5', 'L6', 'L4', 'L7', 'L4', 'L8', 'L10', 'L11'];
/** PROTOCOLS.md §2.3: 80008100, 8104, 8100. */
const CAPTURE: Key[] = ['L12', 'L13', 'L8'];

/** The (register, value) pairs of a write transfer, e.g. for logs: `[[0x80, 0x01]]` for `8001`. */
export function registerPairs(transfer: Uint8Array): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i + 1 < transfer.length; i += 2) pairs.push([transfer[i]!, transfer[i + 1]!]);
  return pairs;
}

/** Unpacks the 8 strips of 4-bit pixels into a 128x128 image (layout: see the file comment). */
export function unpackStrips(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(SIDE * SIDE);
  for (let s = 0; s < SIDE / STRIP_ROWS; s++) {
    const at = s * (STRIP_BYTES + 1);
    if (data[at] !== 0xe0 + s) throw new DriverProtocolError('aes3500', `strip ${s}: header 0x${data[at]?.toString(16)} instead of 0x${(0xe0 + s).toString(16)}`);
    for (let i = 0; i < STRIP_BYTES; i++) {
      const b = data[at + 1 + i]!;
      const column = Math.floor(i / (STRIP_ROWS / 2));
      const row = s * STRIP_ROWS + 2 * (i % (STRIP_ROWS / 2));
      out[row * SIDE + column] = (b & 0x0f) * 17;
      out[(row + 1) * SIDE + column] = (b >> 4) * 17;
    }
  }
  return out;
}

/** Bilinear 2x enlargement: output pixel centre (x + 0.5) / 2 - 0.5 in source coordinates, edges repeated, rounded. */
export function enlarge2x(src: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(4 * w * h);
  const px = (x: number, y: number) => src[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
  for (let y = 0; y < 2 * h; y++) {
    const sy = (y + 0.5) / 2 - 0.5;
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    for (let x = 0; x < 2 * w; x++) {
      const sx = (x + 0.5) / 2 - 0.5;
      const x0 = Math.floor(sx);
      const fx = sx - x0;
      const top = px(x0, y0) * (1 - fx) + px(x0 + 1, y0) * fx;
      const bottom = px(x0, y0 + 1) * (1 - fx) + px(x0 + 1, y0 + 1) * fx;
      out[y * 2 * w + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return out;
}

class Aes3500Driver implements FingerprintDriver {
  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    for (const key of INIT) await this.usb.bulkOut(EP_OUT, hexBytes(OUT[key]), { timeoutMs: TIMEOUT_MS });
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    for (const key of CAPTURE) await this.usb.bulkOut(EP_OUT, hexBytes(OUT[key]), { timeoutMs: TIMEOUT_MS, signal: ctx.signal });
    // Blocks until a finger is on the sensor: no timeout of its own, the caller's timeout or signal ends it.
    const data = await this.usb.bulkIn(EP_IN, DATA_BYTES, { signal: ctx.signal });
    expectLength('aes3500', data, DATA_BYTES, 'image read');
    ctx.fingerOn?.();
    const big = enlarge2x(unpackStrips(data), SIDE, SIDE);
    // Turned by 180 degrees and inverted. The protocol reports no finger-off.
    const pixels = new Uint8Array(big.length);
    for (let i = 0; i < big.length; i++) pixels[i] = 255 - big[big.length - 1 - i]!;
    return { widthPx: 2 * SIDE, heightPx: 2 * SIDE, pixels, dpi: aes3500.dpi };
  }

  async close(): Promise<void> {
    await this.usb.close();
  }
}

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

export const aes3500: DriverDefinition = {
  id: 'aes3500',
  name: 'AuthenTec AES3500 TruePrint',
  devices: [{ vendorId: 0x08ff, productId: 0x5731 }],
  sensor: 'press',
  widthPx: 2 * SIDE,
  heightPx: 2 * SIDE,
  dpi: 1100,
  create: (usb) => new Aes3500Driver(usb),
};
