/**
 * Crops for the passive liveness check. Pure functions over an interleaved 8-bit RGB raster.
 *
 * `silentFaceRect` / `silentFaceInput` reproduce the input of Silent-Face-Anti-Spoofing
 * (minivision-ai, src/generate_patches.py CropImage._get_new_box and crop, as also done by
 * faceplugin's lib/fr_liveness.js alignLivenessImage): the face box scaled by `scale` (2.7) about
 * its centre, the scale capped so the crop fits the image, the crop shifted back inside the image,
 * then cv2.resize (bilinear, half-pixel centres, no antialiasing) to 128x128, planar **BGR**, raw 0..255.
 */

/** Interleaved 8-bit RGB raster, row-major, `data.length === width * height * 3` (same shape as the face engine's). */
export interface RgbRaster {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Integer pixel rectangle, inclusive of x0..x1 and y0..y1. */
export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Silent-Face's enlarged crop around `box` (see module doc), in integer source pixels, inclusive. */
export function silentFaceRect(box: FaceBox, width: number, height: number, scale: number): PixelRect {
  const s = Math.min((height - 1) / box.height, (width - 1) / box.width, scale);
  const nw = box.width * s;
  const nh = box.height * s;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let x0 = cx - nw / 2;
  let y0 = cy - nh / 2;
  let x1 = cx + nw / 2;
  let y1 = cy + nh / 2;
  if (x0 < 0) {
    x1 -= x0;
    x0 = 0;
  }
  if (y0 < 0) {
    y1 -= y0;
    y0 = 0;
  }
  if (x1 > width - 1) {
    x0 -= x1 - width + 1;
    x1 = width - 1;
  }
  if (y1 > height - 1) {
    y0 -= y1 - height + 1;
    y1 = height - 1;
  }
  // Python's int() truncates towards zero; the coordinates are >= 0 here except for rounding noise.
  return { x0: Math.max(0, Math.trunc(x0)), y0: Math.max(0, Math.trunc(y0)), x1: Math.min(width - 1, Math.trunc(x1)), y1: Math.min(height - 1, Math.trunc(y1)) };
}

/**
 * Bilinear resize of `rect` to size x size as cv2.resize(INTER_LINEAR) does (half-pixel centres,
 * edge clamped, no antialiasing), planar output.
 * @param order 'bgr' (the network's) or 'rgb'.
 * @returns Float32Array [3, size, size], values 0..255.
 */
export function resizePlanar(img: RgbRaster, rect: PixelRect, size: number, order: 'bgr' | 'rgb'): Float32Array {
  const cw = rect.x1 - rect.x0 + 1;
  const ch = rect.y1 - rect.y0 + 1;
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  const W = img.width;
  const d = img.data;
  const fxs = cw / size;
  const fys = ch / size;
  const xi0 = new Int32Array(size);
  const xi1 = new Int32Array(size);
  const xw = new Float32Array(size);
  for (let x = 0; x < size; x++) {
    let sx = (x + 0.5) * fxs - 0.5;
    if (sx < 0) sx = 0;
    const i = Math.min(Math.floor(sx), cw - 1);
    xi0[x] = rect.x0 + i;
    xi1[x] = rect.x0 + Math.min(i + 1, cw - 1);
    xw[x] = Math.min(sx - i, 1);
  }
  const c0 = order === 'bgr' ? 2 : 0;
  const c2 = order === 'bgr' ? 0 : 2;
  for (let y = 0; y < size; y++) {
    let sy = (y + 0.5) * fys - 0.5;
    if (sy < 0) sy = 0;
    const j = Math.min(Math.floor(sy), ch - 1);
    const wy = Math.min(sy - j, 1);
    const r0 = (rect.y0 + j) * W;
    const r1 = (rect.y0 + Math.min(j + 1, ch - 1)) * W;
    for (let x = 0; x < size; x++) {
      const a = (r0 + xi0[x]) * 3;
      const b = (r0 + xi1[x]) * 3;
      const c = (r1 + xi0[x]) * 3;
      const e = (r1 + xi1[x]) * 3;
      const wx = xw[x];
      const o = y * size + x;
      for (let k = 0; k < 3; k++) {
        const top = d[a + k] + (d[b + k] - d[a + k]) * wx;
        const bot = d[c + k] + (d[e + k] - d[c + k]) * wx;
        const v = top + (bot - top) * wy;
        out[(k === 0 ? c0 : k === 2 ? c2 : 1) * plane + o] = v;
      }
    }
  }
  return out;
}

/** The network input: Silent-Face crop, 128x128 planar BGR 0..255 (see module doc). */
export function silentFaceInput(img: RgbRaster, box: FaceBox, scale = 2.7, size = 128): Float32Array {
  return resizePlanar(img, silentFaceRect(box, img.width, img.height, scale), size, 'bgr');
}

/**
 * Grey (BT.601 luma) square patch of side n centred on (cx, cy), sampled at the image's own pixels
 * (no resampling, so screen grids and halftone survive); edge pixels clamped.
 */
export function nativeGreyPatch(img: RgbRaster, cx: number, cy: number, n: number): Float32Array {
  const out = new Float32Array(n * n);
  const x0 = Math.round(cx - n / 2);
  const y0 = Math.round(cy - n / 2);
  for (let y = 0; y < n; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, y0 + y));
    for (let x = 0; x < n; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, x0 + x));
      const p = (sy * img.width + sx) * 3;
      out[y * n + x] = 0.299 * img.data[p] + 0.587 * img.data[p + 1] + 0.114 * img.data[p + 2];
    }
  }
  return out;
}
