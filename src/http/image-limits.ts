import sharp from 'sharp';
import { BiostationError } from '../runtime/errors.js';
import { decodeBase64Field } from '../runtime/base64.js';
import { MAX_IMAGE_BASE64_CHARS } from './schemas.js';
import { takeDecodedImage } from './json-body.js';

/**
 * Limits on images received by the HTTP API, enforced at the boundary before any engine decodes
 * a pixel (issue #18, finding 3). One byte limit for every image route (the spec's 20 MB upload
 * limit, also applied to base64 images in JSON bodies); a pixel limit per modality, read from the
 * image header (width x height as declared), equal to the limit its engine was built for.
 */
export const IMAGE_LIMITS = {
  /** Largest encoded image, bytes (after base64 decoding): 20 MiB on every image route. */
  maxBytes: 20 * 1024 * 1024,
  /** Largest declared width x height, by modality. */
  maxPixels: { face: 40_000_000, finger: 16_000_000 },
} as const;

export type ImageModality = keyof typeof IMAGE_LIMITS.maxPixels;

/** Width and height an image header declares, or undefined when the header is not one of the known formats. */
export interface DeclaredSize {
  format: string;
  width: number;
  height: number;
}

/**
 * The dimensions a BMP or Netpbm (PBM/PGM/PPM, P1-P6) header declares: formats sharp cannot read,
 * which the fingerprint engine decodes itself. Reads the header only. Undefined for other data.
 */
export function declaredSizeOfRaw(bytes: Uint8Array): DeclaredSize | undefined {
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { format: 'bmp', width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
  }
  if (bytes.length >= 3 && bytes[0] === 0x50 && bytes[1] >= 0x31 && bytes[1] <= 0x36) {
    let pos = 2;
    const token = (): number | undefined => {
      for (;;) {
        while (pos < bytes.length && (bytes[pos] === 0x20 || (bytes[pos] >= 0x09 && bytes[pos] <= 0x0d))) pos++;
        if (bytes[pos] !== 0x23) break;
        while (pos < bytes.length && bytes[pos] !== 0x0a) pos++;
      }
      const start = pos;
      while (pos < bytes.length && pos - start < 12 && bytes[pos] >= 0x30 && bytes[pos] <= 0x39) pos++;
      return pos > start ? Number(Buffer.from(bytes.subarray(start, pos)).toString('latin1')) : undefined;
    };
    const width = token();
    const height = token();
    if (width === undefined || height === undefined) return undefined;
    return { format: 'netpbm', width, height };
  }
  return undefined;
}

/**
 * Declared dimensions of any image the engines accept: BMP and Netpbm by their headers, the rest
 * (JPEG, PNG, WebP, TIFF, ...) by libvips's header reader (sharp `metadata()`, which decodes no
 * pixels). Undefined when no reader recognises the data (the engine then refuses it as INVALID_IMAGE).
 */
export async function declaredSizeOf(bytes: Uint8Array): Promise<DeclaredSize | undefined> {
  const raw = declaredSizeOfRaw(bytes);
  if (raw) return raw;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.format || meta.width === undefined || meta.height === undefined) return undefined;
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}

/**
 * Refuses an image whose encoded size or declared pixel count exceeds the limits of its modality.
 * @throws BiostationError IMAGE_TOO_LARGE naming the field, the size and the limit.
 */
export async function assertImageWithinLimits(bytes: Uint8Array, field: string, modality: ImageModality): Promise<void> {
  if (bytes.length > IMAGE_LIMITS.maxBytes) {
    throw new BiostationError('IMAGE_TOO_LARGE', `${field} has ${bytes.length} bytes; the limit is ${IMAGE_LIMITS.maxBytes} bytes`);
  }
  const size = await declaredSizeOf(bytes);
  const limit = IMAGE_LIMITS.maxPixels[modality];
  if (size && size.width * size.height > limit) {
    throw new BiostationError(
      'IMAGE_TOO_LARGE',
      `${field} declares ${size.width}x${size.height} pixels; the limit is ${limit} pixels`,
      { width: size.width, height: size.height },
    );
  }
}

/**
 * A base64 image field of a JSON body, decoded and checked against the limits of its modality.
 * The field's length limits live here rather than in the schema (see Base64Image in schemas.ts).
 * @throws BiostationError INVALID_REQUEST for an empty field or one over MAX_IMAGE_BASE64_CHARS
 *   characters; INVALID_BASE64; IMAGE_TOO_LARGE
 */
export async function imageField(value: string, field: string, modality: ImageModality): Promise<Uint8Array> {
  assertImageChars(value.length, field);
  const bytes = decodeBase64Field(value, field, IMAGE_LIMITS.maxBytes);
  await assertImageWithinLimits(bytes, field, modality);
  return bytes;
}

function assertImageChars(chars: number, field: string): void {
  if (chars === 0 || chars > MAX_IMAGE_BASE64_CHARS) {
    throw new BiostationError('INVALID_REQUEST', `${field} must hold 1 to ${MAX_IMAGE_BASE64_CHARS} characters`);
  }
}

/**
 * `imageField` of `holder.imageData`, taking the bytes the body-parse worker already decoded from it
 * when it did (json-body.ts: large bodies; the field then holds ''), with the same checks and errors.
 */
export async function imageFieldOf(holder: { imageData: string }, field: string, modality: ImageModality): Promise<Uint8Array> {
  const done = holder.imageData === '' ? takeDecodedImage(holder) : undefined;
  if (!done) return imageField(holder.imageData, field, modality);
  assertImageChars(done.chars, field);
  await assertImageWithinLimits(done.bytes, field, modality);
  return done.bytes;
}
