import type { OrientationField } from './block-orientations.js';

/**
 * Ridge-pattern evidence ("ridgeness") 0..1: for foreground blocks on a 16 px lattice, the image is
 * sampled into a 32-sample x-signature across the ridges (each sample averaged over 16 px along the
 * ridge, after Hong, Wan & Jain 1998); the share of the signature's AC energy in its strongest
 * frequency band for ridge periods of 4.5..16 px is the block's score; the result is the mean.
 * Fingerprints score high (a single dominant ridge frequency); faces, blank areas and noise low.
 */
export function ridgeness(equalized: Float32Array, mask: Uint8Array, width: number, height: number, field: OrientationField): number {
  const N = 32;
  const L = 16;
  const signature = new Float64Array(N);
  const cosTable = new Float64Array((N / 2 + 1) * N);
  const sinTable = new Float64Array((N / 2 + 1) * N);
  for (let k = 0; k <= N / 2; k++) {
    for (let t = 0; t < N; t++) {
      cosTable[k * N + t] = Math.cos((2 * Math.PI * k * t) / N);
      sinTable[k * N + t] = Math.sin((2 * Math.PI * k * t) / N);
    }
  }
  let sum = 0;
  let blocks = 0;
  for (let cy = 24; cy < height - 24; cy += 16) {
    for (let cx = 24; cx < width - 24; cx += 16) {
      if (!mask[cy * width + cx]) continue;
      const b = ((cy / field.blockSize) | 0) * field.columns + ((cx / field.blockSize) | 0);
      const angle = Math.atan2(field.vy[b], field.vx[b]) / 2;
      const ux = Math.cos(angle);
      const uy = Math.sin(angle);
      for (let t = 0; t < N; t++) {
        const o = t - N / 2 + 0.5;
        let acc = 0;
        const bx = cx - uy * o + 0.5;
        const by = cy + ux * o + 0.5;
        for (let s = 0; s < L; s += 2) {
          const a = s - L / 2 + 0.5;
          acc += equalized[((by + uy * a) | 0) * width + ((bx + ux * a) | 0)];
        }
        signature[t] = acc;
      }
      let mean = 0;
      for (let t = 0; t < N; t++) mean += signature[t];
      mean /= N;
      let total = 0;
      let best = 0;
      const power = new Float64Array(N / 2 + 1);
      for (let k = 1; k <= N / 2; k++) {
        let re = 0;
        let im = 0;
        for (let t = 0; t < N; t++) {
          const v = signature[t] - mean;
          re += v * cosTable[k * N + t];
          im -= v * sinTable[k * N + t];
        }
        power[k] = re * re + im * im;
        total += power[k];
      }
      for (let k = 3; k <= 6; k++) best = Math.max(best, power[k - 1] * 0.5 + power[k] + power[k + 1] * 0.5);
      const score = total > 1e-9 ? Math.min(1, best / total) : 0;
      sum += score >= 0.6 ? 1 : 0;
      blocks++;
    }
  }
  return blocks ? sum / blocks : 0;
}
