import { Parameters } from '../parameters.js';
import { maskRowSpans } from './segmentation.js';

/** Ridge orientation field. */
export interface OrientationField {
  /** Orientation-block grid (blocks of `blockSize` px). */
  blockSize: number;
  columns: number;
  rows: number;
  /** Smoothed doubled-angle vector of the ridge direction per block (cos 2a, sin 2a scaled by strength). */
  vx: Float32Array;
  vy: Float32Array;
  /** Coherence 0..1 per block (1 = perfectly parallel ridges). */
  coherence: Float32Array;
  /** Per-pixel quantised ridge direction, bin k = angle k*pi/bins in image coordinates (y down). */
  pixelBins: Uint8Array;
  bins: number;
}

/**
 * `Math.round(a * binScale) % bins` for `a` = half the angle of (px, py), in [0, pi) (the exact
 * formula). A polynomial arctangent (Abramowitz & Stegun 4.4.47, |error| <= 1e-5 rad) decides the bin
 * unless the scaled angle lies within 1e-3 of a rounding boundary, where the exact `Math.atan2` is used:
 * the result is always the exact formula's.
 */
function angleBin(py: number, px: number, binScale: number, bins: number): number {
  const ax = px < 0 ? -px : px;
  const ay = py < 0 ? -py : py;
  if (ax > 0 || ay > 0) {
    const swap = ay > ax;
    const z = swap ? ax / ay : ay / ax;
    const z2 = z * z;
    let t = z * (0.999866 + z2 * (-0.3302995 + z2 * (0.180141 + z2 * (-0.085133 + z2 * 0.0208351))));
    if (swap) t = Math.PI / 2 - t;
    if (px < 0) t = Math.PI - t;
    if (py < 0) t = -t;
    let angle = t / 2;
    if (angle < 0) angle += Math.PI;
    const scaled = angle * binScale;
    const frac = scaled - Math.floor(scaled);
    if (frac < 0.499 || frac > 0.501) {
      // far from a rounding boundary; at the wrap-around (0 / bins) both sides give bin 0
      const r = Math.round(scaled) % bins;
      return r < 0 ? 0 : r;
    }
  }
  let angle = Math.atan2(py, px) / 2;
  if (angle < 0) angle += Math.PI;
  return Math.round(angle * binScale) % bins;
}

/**
 * Ridge orientation by the gradient (structure tensor) method: central-difference gradients of the
 * equalised image, doubled-angle vectors summed per 8 px block over the mask, box-smoothed over
 * (2r+1)^2 blocks, then interpolated per pixel and quantised (Kass & Witkin 1987; Bazen & Gerez 2002).
 * Input: equalised image [-1,1], pixel mask. Ridge direction = gradient direction + 90 degrees.
 */
export function orientations(equalized: Float32Array, mask: Uint8Array, width: number, height: number): OrientationField {
  const blockSize = Parameters.orientationBlockPx;
  const columns = Math.ceil(width / blockSize);
  const rows = Math.ceil(height / blockSize);
  const n = columns * rows;
  const sxx = new Float64Array(n);
  const sxy = new Float64Array(n);
  const smag = new Float64Array(n);
  for (let y = 1; y < height - 1; y++) {
    const rowBlock = ((y / blockSize) | 0) * columns;
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      const gx = equalized[i + 1] - equalized[i - 1];
      const gy = equalized[i + width] - equalized[i - width];
      const b = rowBlock + ((x / blockSize) | 0);
      sxx[b] += gx * gx - gy * gy;
      sxy[b] += 2 * gx * gy;
      smag[b] += gx * gx + gy * gy;
    }
  }
  const r = Parameters.orientationSmoothingRadius;
  const vx = new Float32Array(n);
  const vy = new Float32Array(n);
  const coherence = new Float32Array(n);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      let ax = 0;
      let ay = 0;
      let am = 0;
      for (let y = Math.max(0, by - r); y <= Math.min(rows - 1, by + r); y++) {
        for (let x = Math.max(0, bx - r); x <= Math.min(columns - 1, bx + r); x++) {
          const b = y * columns + x;
          const w = 1 / (1 + (x - bx) * (x - bx) + (y - by) * (y - by));
          ax += sxx[b] * w;
          ay += sxy[b] * w;
          am += smag[b] * w;
        }
      }
      const b = by * columns + bx;
      // ridge direction vector = gradient doubled-angle vector rotated by 180 degrees
      vx[b] = -ax;
      vy[b] = -ay;
      coherence[b] = am > 0 ? Math.hypot(ax, ay) / am : 0;
    }
  }
  const bins = Parameters.orientationBins;
  const pixelBins = new Uint8Array(width * height);
  const binScale = bins / Math.PI;
  // bins are needed within the smoothing radius of the mask only
  const spans = maskRowSpans(mask, width, height, Parameters.orthogonalSmoothingRadius);
  // per-column interpolation cells and weights (the same values as computed per pixel)
  const columnX0 = new Int32Array(width);
  const columnX1 = new Int32Array(width);
  const columnWx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    let fx = (x + 0.5) / blockSize - 0.5;
    if (fx < 0) fx = 0;
    const x0 = Math.min(columns - 1, fx | 0);
    columnX0[x] = x0;
    columnX1[x] = Math.min(columns - 1, x0 + 1);
    columnWx[x] = Math.min(1, fx - x0);
  }
  for (let y = 0; y < height; y++) {
    let fy = (y + 0.5) / blockSize - 0.5;
    if (fy < 0) fy = 0;
    const y0 = Math.min(rows - 1, fy | 0);
    const y1 = Math.min(rows - 1, y0 + 1);
    const wy = Math.min(1, fy - y0);
    const xEnd = spans.hi[y];
    for (let x = spans.lo[y]; x <= xEnd; x++) {
      const x0 = columnX0[x];
      const x1 = columnX1[x];
      const wx = columnWx[x];
      const a = y0 * columns;
      const c = y1 * columns;
      const px = (vx[a + x0] * (1 - wx) + vx[a + x1] * wx) * (1 - wy) + (vx[c + x0] * (1 - wx) + vx[c + x1] * wx) * wy;
      const py = (vy[a + x0] * (1 - wx) + vy[a + x1] * wx) * (1 - wy) + (vy[c + x0] * (1 - wx) + vy[c + x1] * wx) * wy;
      pixelBins[y * width + x] = angleBin(py, px, binScale, bins);
    }
  }
  return { blockSize, columns, rows, vx, vy, coherence, pixelBins, bins };
}
