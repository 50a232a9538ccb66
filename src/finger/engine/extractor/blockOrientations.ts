import { Parameters } from '../configuration/parameters.js';
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
  for (let y = 0; y < height; y++) {
    let fy = (y + 0.5) / blockSize - 0.5;
    if (fy < 0) fy = 0;
    const y0 = Math.min(rows - 1, fy | 0);
    const y1 = Math.min(rows - 1, y0 + 1);
    const wy = Math.min(1, fy - y0);
    const xEnd = spans.hi[y];
    for (let x = spans.lo[y]; x <= xEnd; x++) {
      let fx = (x + 0.5) / blockSize - 0.5;
      if (fx < 0) fx = 0;
      const x0 = Math.min(columns - 1, fx | 0);
      const x1 = Math.min(columns - 1, x0 + 1);
      const wx = Math.min(1, fx - x0);
      const a = y0 * columns;
      const c = y1 * columns;
      const px = (vx[a + x0] * (1 - wx) + vx[a + x1] * wx) * (1 - wy) + (vx[c + x0] * (1 - wx) + vx[c + x1] * wx) * wy;
      const py = (vy[a + x0] * (1 - wx) + vy[a + x1] * wx) * (1 - wy) + (vy[c + x0] * (1 - wx) + vy[c + x1] * wx) * wy;
      let angle = Math.atan2(py, px) / 2;
      if (angle < 0) angle += Math.PI;
      pixelBins[y * width + x] = Math.round(angle * binScale) % bins;
    }
  }
  return { blockSize, columns, rows, vx, vy, coherence, pixelBins, bins };
}
