/** An 8-bit grayscale raster, row-major, `pixels.length === width * height`, 0 = black. */
export interface GrayImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/**
 * Bilinear rescale of a gray image by `factor` (output side = round(side * factor)).
 * Used to bring any input resolution to the internal 500 dpi.
 */
export function rescaleGray(image: GrayImage, factor: number): GrayImage {
  if (Math.abs(factor - 1) < 1e-3) return image;
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const out = new Uint8Array(width * height);
  const src = image.pixels;
  const sw = image.width;
  const sh = image.height;
  const sx = sw / width;
  const sy = sh / height;
  for (let y = 0; y < height; y++) {
    let fy = (y + 0.5) * sy - 0.5;
    if (fy < 0) fy = 0;
    let y0 = Math.floor(fy);
    if (y0 > sh - 2) y0 = Math.max(0, sh - 2);
    const wy = Math.min(1, fy - y0);
    const y1 = Math.min(sh - 1, y0 + 1);
    for (let x = 0; x < width; x++) {
      let fx = (x + 0.5) * sx - 0.5;
      if (fx < 0) fx = 0;
      let x0 = Math.floor(fx);
      if (x0 > sw - 2) x0 = Math.max(0, sw - 2);
      const wx = Math.min(1, fx - x0);
      const x1 = Math.min(sw - 1, x0 + 1);
      const a = src[y0 * sw + x0] * (1 - wx) + src[y0 * sw + x1] * wx;
      const b = src[y1 * sw + x0] * (1 - wx) + src[y1 * sw + x1] * wx;
      out[y * width + x] = Math.round(a * (1 - wy) + b * wy);
    }
  }
  return { width, height, pixels: out };
}
