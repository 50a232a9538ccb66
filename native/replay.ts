/**
 * Replays a recorded USB session through its driver (the `readers replay` command, and how a
 * field bug report is reproduced): loads the recording folder, picks the driver by the recorded
 * vendor:product id, runs open + capture over a ReplayTransport and returns the image.
 * Also compares an image with a reference PNG (mean absolute difference).
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { DRIVERS, findDriver, usbIdString, type DriverDefinition, type GrayImage } from './drivers/index.js';
import { loadRecording, type Recording } from './usb/recording.js';
import { ReplayTransport } from './usb/replay-transport.js';

/** No driver handles the recorded device. */
export class UnsupportedDeviceError extends Error {
  readonly code = 'UNSUPPORTED_DEVICE' as const;
  constructor(id: string) {
    super(`no driver for USB device ${id} (supported: ${DRIVERS.map((d) => d.devices.map((x) => usbIdString(x.vendorId, x.productId)).join(', ')).join('; ')})`);
    this.name = 'UnsupportedDeviceError';
  }
}

export interface ReplayResult {
  driver: DriverDefinition;
  recording: Recording;
  image: GrayImage;
  /** Recorded URBs answered at least once, of all. */
  coverage: { used: number; total: number };
}

/** Runs the matching driver over `dir`'s recording. Rejects with the driver's or the replay's error. */
export async function replayRecording(dir: string, options: { signal?: AbortSignal } = {}): Promise<ReplayResult> {
  const recording = await loadRecording(dir);
  const { vendorId, productId } = recording.device;
  const driver = findDriver(vendorId, productId);
  if (!driver) throw new UnsupportedDeviceError(usbIdString(vendorId, productId));
  const transport = new ReplayTransport(recording);
  const session = driver.create(transport);
  try {
    await session.open();
    const image = await session.capture({ signal: options.signal });
    return { driver, recording, image, coverage: transport.coverage };
  } finally {
    await session.close();
  }
}

/** Encodes a grayscale image as an 8-bit grey PNG (colour type 0) carrying its dpi in a pHYs chunk. */
export async function encodePng(image: GrayImage): Promise<Buffer> {
  // sharp's withMetadata({ density }) would also convert to sRGB with an ICC profile: write pHYs ourselves.
  const png = await sharp(Buffer.from(image.pixels), { raw: { width: image.widthPx, height: image.heightPx, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  return withPngDensity(png, image.dpi);
}

/** Inserts a pHYs chunk (pixels per metre, both axes) right after IHDR. */
export function withPngDensity(png: Buffer, dpi: number): Buffer {
  const ihdrEnd = 8 + 8 + 13 + 4; // signature, IHDR length+type, IHDR data, CRC
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  const perMetre = Math.round(dpi / 0.0254);
  const chunk = Buffer.alloc(4 + 4 + 9 + 4);
  chunk.writeUInt32BE(9, 0);
  chunk.write('pHYs', 4, 'latin1');
  chunk.writeUInt32BE(perMetre, 8);
  chunk.writeUInt32BE(perMetre, 12);
  chunk.writeUInt8(1, 16); // unit: metre
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 17)), 17);
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}

/** Decodes any image sharp reads into 8-bit grey (the G channel of RGB PNGs such as libfprint's). */
export async function decodeGray(bytes: Uint8Array): Promise<{ widthPx: number; heightPx: number; pixels: Uint8Array }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(info.width * info.height);
  const channel = info.channels >= 3 ? 1 : 0;
  for (let i = 0; i < pixels.length; i++) pixels[i] = data[i * info.channels + channel]!;
  return { widthPx: info.width, heightPx: info.height, pixels };
}

/** Pixel comparison of two equally sized grey images. Throws when the sizes differ. */
export function comparePixels(a: { widthPx: number; heightPx: number; pixels: Uint8Array }, b: { widthPx: number; heightPx: number; pixels: Uint8Array }): { equalPixels: number; totalPixels: number; meanAbsDiff: number } {
  if (a.widthPx !== b.widthPx || a.heightPx !== b.heightPx) {
    throw new Error(`image sizes differ: ${a.widthPx}x${a.heightPx} vs ${b.widthPx}x${b.heightPx}`);
  }
  let equal = 0;
  let sum = 0;
  for (let i = 0; i < a.pixels.length; i++) {
    const d = Math.abs(a.pixels[i]! - b.pixels[i]!);
    if (d === 0) equal++;
    sum += d;
  }
  return { equalPixels: equal, totalPixels: a.pixels.length, meanAbsDiff: sum / a.pixels.length };
}

/**
 * Compares a replayed image with the reference: pixel for pixel when the sizes agree; otherwise the
 * replayed image is first resized to the reference's size (sharp, bilinear), and `resized` says so.
 */
export async function compareWithReference(
  image: { widthPx: number; heightPx: number; pixels: Uint8Array },
  reference: { widthPx: number; heightPx: number; pixels: Uint8Array },
): Promise<{ equalPixels: number; totalPixels: number; meanAbsDiff: number; resized: boolean }> {
  if (image.widthPx === reference.widthPx && image.heightPx === reference.heightPx) return { ...comparePixels(image, reference), resized: false };
  const pixels = await sharp(Buffer.from(image.pixels), { raw: { width: image.widthPx, height: image.heightPx, channels: 1 } })
    .resize(reference.widthPx, reference.heightPx, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { ...comparePixels({ widthPx: reference.widthPx, heightPx: reference.heightPx, pixels: new Uint8Array(pixels) }, reference), resized: true };
}
