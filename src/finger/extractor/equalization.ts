import { Parameters } from '../parameters.js';
import type { GrayImage } from '../images/gray-image.js';
import type { Segmentation } from './segmentation.js';

/**
 * Local histogram equalisation with a limited transfer-curve slope, interpolated bilinearly between
 * block corners (after SourceAFIS `ImageEqualization`; similar to CLAHE). Each corner's histogram is the
 * sum of the (up to four) foreground blocks around it.
 * Output: Float32Array of `width*height` values in [-1, 1]; dark (ridge) pixels map to low values.
 */
export function equalize(image: GrayImage, segmentation: Segmentation): Float32Array {
  const { width, height, pixels } = image;
  const { grid, histograms, blockMask } = segmentation;
  const { columns, rows, blockSize } = grid;
  const cornerColumns = columns + 1;
  const maps = new Float32Array(cornerColumns * (rows + 1) * 256);
  const hist = new Float64Array(256);
  const steps = new Float64Array(256);
  for (let cy = 0; cy <= rows; cy++) {
    for (let cx = 0; cx <= cornerColumns - 1; cx++) {
      hist.fill(0);
      let total = 0;
      for (let by = cy - 1; by <= cy; by++) {
        for (let bx = cx - 1; bx <= cx; bx++) {
          if (by < 0 || bx < 0 || by >= rows || bx >= columns) continue;
          const b = by * columns + bx;
          if (!blockMask[b]) continue;
          const base = b * 256;
          for (let v = 0; v < 256; v++) {
            hist[v] += histograms[base + v];
            total += histograms[base + v];
          }
        }
      }
      const mapBase = (cy * cornerColumns + cx) * 256;
      if (total === 0) {
        for (let v = 0; v < 256; v++) maps[mapBase + v] = (v / 255) * 2 - 1;
        continue;
      }
      let stepSum = 0;
      for (let v = 0; v < 256; v++) {
        const s = Math.min(Parameters.maxEqualizationScaling, Math.max(Parameters.minEqualizationScaling, (hist[v] * 256) / total));
        steps[v] = s;
        stepSum += s;
      }
      let acc = 0;
      for (let v = 0; v < 256; v++) {
        maps[mapBase + v] = ((acc + steps[v] / 2) / stepSum) * 2 - 1;
        acc += steps[v];
      }
    }
  }
  const out = new Float32Array(width * height);
  // per-column block offset and weights (the same values the per-pixel expressions give)
  const columnMap = new Int32Array(width);
  const columnFx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const bx = (x / blockSize) | 0;
    columnMap[x] = bx * 256;
    columnFx[x] = (x - bx * blockSize + 0.5) / blockSize;
  }
  for (let y = 0; y < height; y++) {
    const by = (y / blockSize) | 0;
    const fy = (y - by * blockSize + 0.5) / blockSize;
    const gy = 1 - fy;
    const top = by * cornerColumns * 256;
    const bottom = (by + 1) * cornerColumns * 256;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const fx = columnFx[x];
      const v = pixels[row + x] + columnMap[x];
      const tl = maps[top + v];
      const tr = maps[top + v + 256];
      const bl = maps[bottom + v];
      const br = maps[bottom + v + 256];
      out[row + x] = (tl * (1 - fx) + tr * fx) * gy + (bl * (1 - fx) + br * fx) * fy;
    }
  }
  return out;
}
