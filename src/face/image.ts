/**
 * Image decoding for the face engine: bytes -> 8-bit RGB pixels, EXIF orientation applied.
 * Accepts JPEG, PNG and WebP. Uses sharp (libvips).
 */
import sharp from 'sharp';
import { FaceError } from './errors.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from './tuning.js';

/** Interleaved 8-bit RGB raster, row-major, `data.length === width * height * 3`. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}


const FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * Decodes an image.
 * @returns RGB raster after EXIF orientation, downscaled so its longest side <= maxWorkingSidePx,
 *   plus `scale` = working px / original px (1 when not downscaled).
 * @throws FaceError INVALID_IMAGE (not JPEG/PNG/WebP, corrupt or truncated),
 *   IMAGE_TOO_LARGE (header says more than maxInputPixels), IMAGE_TOO_SMALL (a side < minSidePx).
 */
export async function decodeImage(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): Promise<RgbImage & { scale: number }> {
  if (!bytes || bytes.length < 8) throw new FaceError('INVALID_IMAGE', 'The data is too short to be an image');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new FaceError('INVALID_IMAGE');
  }
  if (!meta.format || !FORMATS.has(meta.format)) {
    throw new FaceError('INVALID_IMAGE', `Unsupported image format ${meta.format ?? 'unknown'}; use JPEG, PNG or WebP`);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > limits.maxInputPixels) {
    throw new FaceError('IMAGE_TOO_LARGE', `The image has ${w}x${h} pixels; the limit is ${limits.maxInputPixels} pixels`, { width: w, height: h });
  }
  if (w < limits.minSidePx || h < limits.minSidePx) {
    throw new FaceError('IMAGE_TOO_SMALL', `The image is ${w}x${h}; each side must be at least ${limits.minSidePx} px`, { width: w, height: h });
  }
  try {
    let pipeline = sharp(bytes, { failOn: 'truncated', limitInputPixels: limits.maxInputPixels }).rotate();
    const oriented = (meta.orientation ?? 1) >= 5 ? { w: h, h: w } : { w, h };
    const longest = Math.max(oriented.w, oriented.h);
    let scale = 1;
    if (longest > limits.maxWorkingSidePx) {
      scale = limits.maxWorkingSidePx / longest;
      pipeline = pipeline.resize(Math.round(oriented.w * scale), Math.round(oriented.h * scale), { fit: 'fill' });
    }
    const { data, info } = await pipeline.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const rgb = info.channels === 3 ? new Uint8Array(data.buffer, data.byteOffset, data.length) : toRgb(data, info.channels);
    return { width: info.width, height: info.height, data: rgb, scale };
  } catch (e) {
    if (e instanceof FaceError) throw e;
    throw new FaceError('INVALID_IMAGE', 'The image data is corrupt or truncated');
  }
}

function toRgb(data: Uint8Array, channels: number): Uint8Array {
  const n = data.length / channels;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const v = data[i * channels];
    out[i * 3] = v;
    out[i * 3 + 1] = channels >= 3 ? data[i * channels + 1] : v;
    out[i * 3 + 2] = channels >= 3 ? data[i * channels + 2] : v;
  }
  return out;
}
