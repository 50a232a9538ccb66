import sharp from 'sharp';
import { FingerError } from '../errors.js';
import { Parameters } from '../parameters.js';
import { decodeBmp, decodePgm } from './bmp-pgm.js';
import type { GrayImage } from './gray-image.js';

/**
 * Decodes image bytes (PNG, JPEG, TIFF, WebP via sharp/libvips; BMP and PGM by our own decoders)
 * to 8-bit gray. Colour is converted to luma; alpha is flattened onto white.
 * WSQ is not supported: no maintained pure-JS/npm WSQ decoder exists (the data is rejected as INVALID_IMAGE).
 * Throws FingerError: INVALID_IMAGE (empty, unknown or corrupt data), IMAGE_TOO_LARGE (over
 * `Parameters.maxInputPixels`).
 */
export async function decodeImage(bytes: Uint8Array): Promise<GrayImage> {
  if (!bytes || bytes.length === 0) throw new FingerError('INVALID_IMAGE', 'The image data is empty');
  let image: GrayImage;
  if (bytes[0] === 0x42 && bytes[1] === 0x4d) image = decodeBmp(bytes);
  else if (bytes[0] === 0x50 && (bytes[1] === 0x35 || bytes[1] === 0x32)) image = decodePgm(bytes);
  else if (bytes[0] === 0xff && bytes[1] === 0xa0 && bytes[2] === 0xff && bytes[3] === 0xa8) {
    throw new FingerError('INVALID_IMAGE', 'WSQ images are not supported; send PNG, JPEG, BMP or TIFF');
  } else {
    try {
      const { data, info } = await sharp(bytes, { limitInputPixels: Parameters.maxInputPixels, failOn: 'error' })
        .flatten({ background: '#ffffff' })
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height, channels } = info;
      const pixels = new Uint8Array(width * height);
      if (channels === 1) pixels.set(data.subarray(0, width * height));
      else for (let i = 0; i < width * height; i++) pixels[i] = data[i * channels];
      image = { width, height, pixels };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (/pixel limit/i.test(message)) throw new FingerError('IMAGE_TOO_LARGE', message);
      throw new FingerError('INVALID_IMAGE', `The data is not a decodable image (${message})`);
    }
  }
  if (image.width * image.height > Parameters.maxInputPixels) {
    throw new FingerError('IMAGE_TOO_LARGE', `Image of ${image.width}x${image.height} px exceeds the pixel limit`);
  }
  return image;
}
