import { FingerError } from '../errors.js';
import type { GrayImage } from './gray-image.js';

function invalid(reason: string): never {
  throw new FingerError('INVALID_IMAGE', `BMP/PGM: ${reason}`);
}

/**
 * Decodes a Windows BMP (BITMAPINFOHEADER or later; 1/4/8-bit palette, 24-bit BGR, 32-bit BGRA;
 * uncompressed or BI_BITFIELDS with the usual BGRA masks) to 8-bit gray (ITU-R BT.601 luma).
 * Throws FingerError INVALID_IMAGE for truncated or unsupported files.
 */
export function decodeBmp(bytes: Uint8Array): GrayImage {
  if (bytes.length < 54) invalid('file shorter than its headers');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pixelOffset = view.getUint32(10, true);
  const dibSize = view.getUint32(14, true);
  if (dibSize < 40) invalid('only BITMAPINFOHEADER and later are supported');
  const width = view.getInt32(18, true);
  const rawHeight = view.getInt32(22, true);
  const bpp = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) invalid('zero-size image');
  if (compression !== 0 && compression !== 3) invalid(`compression ${compression} is not supported`);
  if (![1, 4, 8, 24, 32].includes(bpp)) invalid(`${bpp} bits per pixel is not supported`);
  const stride = Math.ceil((bpp * width) / 32) * 4;
  if (pixelOffset + stride * height > bytes.length) invalid('pixel data truncated');
  let palette: Uint8Array | undefined;
  if (bpp <= 8) {
    const colours = view.getUint32(46, true) || 1 << bpp;
    const start = 14 + dibSize;
    if (start + colours * 4 > bytes.length) invalid('palette truncated');
    palette = new Uint8Array(256);
    for (let i = 0; i < Math.min(colours, 256); i++) {
      const b = bytes[start + i * 4];
      const g = bytes[start + i * 4 + 1];
      const r = bytes[start + i * 4 + 2];
      palette[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    }
  }
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      let v: number;
      if (bpp === 8) v = palette![bytes[row + x]];
      else if (bpp === 4) v = palette![(bytes[row + (x >> 1)] >> (x & 1 ? 0 : 4)) & 15];
      else if (bpp === 1) v = palette![(bytes[row + (x >> 3)] >> (7 - (x & 7))) & 1];
      else {
        const p = row + x * (bpp >> 3);
        v = Math.round(0.299 * bytes[p + 2] + 0.587 * bytes[p + 1] + 0.114 * bytes[p]);
      }
      pixels[y * width + x] = v;
    }
  }
  return { width, height, pixels };
}

/** Decodes a binary (P5) or ASCII (P2) PGM with maxval <= 65535 to 8-bit gray. Throws INVALID_IMAGE. */
export function decodePgm(bytes: Uint8Array): GrayImage {
  let pos = 2;
  const ascii = bytes[1] === 0x32;
  const readToken = (): number => {
    for (;;) {
      while (pos < bytes.length && /\s/.test(String.fromCharCode(bytes[pos]))) pos++;
      if (bytes[pos] === 0x23) {
        while (pos < bytes.length && bytes[pos] !== 0x0a) pos++;
        continue;
      }
      break;
    }
    let s = '';
    while (pos < bytes.length && /[0-9]/.test(String.fromCharCode(bytes[pos]))) s += String.fromCharCode(bytes[pos++]);
    if (s === '') invalid('PGM header truncated');
    return Number(s);
  };
  const width = readToken();
  const height = readToken();
  const maxval = readToken();
  if (width <= 0 || height <= 0) invalid('zero-size image');
  if (maxval <= 0 || maxval > 65535) invalid('bad PGM maxval');
  const pixels = new Uint8Array(width * height);
  const n = width * height;
  if (ascii) {
    for (let i = 0; i < n; i++) pixels[i] = Math.round((readToken() * 255) / maxval);
    return { width, height, pixels };
  }
  pos++;
  const bytesPer = maxval > 255 ? 2 : 1;
  if (pos + n * bytesPer > bytes.length) invalid('PGM pixel data truncated');
  for (let i = 0; i < n; i++) {
    const v = bytesPer === 1 ? bytes[pos + i] : (bytes[pos + 2 * i] << 8) | bytes[pos + 2 * i + 1];
    pixels[i] = maxval === 255 ? v : Math.round((v * 255) / maxval);
  }
  return { width, height, pixels };
}
