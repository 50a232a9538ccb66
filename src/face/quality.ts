/**
 * Per-face quality measures and the limits enforced at enrollment.
 *
 * - interOcularPx: distance between the eye centres (mean of landmarks 36-41 and 42-47), source px.
 * - faceWidthPx: detector box width, source px.
 * - sharpness: variance of the 4-neighbour Laplacian of the grey aligned 150x150 chip, over its
 *   central 100x100 (ISO/IEC 29794-5 uses similar focus measures). On lfw-dev: 1st percentile 11, median 50.
 * - yaw/pitch/roll (degrees), rough geometric estimates from the 68 landmarks:
 *   roll = angle of the eye line; after de-rolling, yaw = asin(2r - 1) with r the nose tip's
 *   horizontal position between the jaw ends (landmarks 0 and 16); pitch = asin((v - 0.33) / 0.45)
 *   with v the nose tip's vertical position between the eye line and the chin (landmark 8).
 *   Positive yaw = nose towards the image's right, positive pitch = nose down.
 * - meanLuma: mean grey level (BT.601) of the chip's central 100x100, 0..255.
 * - detectionScore: detector objectness 0..1.
 */
import type { FaceQuality } from './engine.js';
import type { Landmarks68 } from './align/align.js';
import { ENROLL_QUALITY_LIMITS, type QualityLimits } from './tuning.js';

/** The limits enforced at enrollment: `QualityLimits` and `ENROLL_QUALITY_LIMITS` in tuning.ts. */

const mean = (pts: Landmarks68, from: number, to: number): [number, number] => {
  let x = 0;
  let y = 0;
  for (let i = from; i <= to; i++) {
    x += pts[2 * i];
    y += pts[2 * i + 1];
  }
  const n = to - from + 1;
  return [x / n, y / n];
};

const clamp1 = (v: number): number => Math.max(-1, Math.min(1, v));
const DEG = 180 / Math.PI;

/** Pose angles in degrees from 68 landmarks (see module doc). */
export function estimatePose(pts: Landmarks68): { yawDeg: number; pitchDeg: number; rollDeg: number } {
  const [lx, ly] = mean(pts, 36, 41);
  const [rx, ry] = mean(pts, 42, 47);
  const roll = Math.atan2(ry - ly, rx - lx);
  const cos = Math.cos(-roll);
  const sin = Math.sin(-roll);
  const rot = (i: number): [number, number] => [pts[2 * i] * cos - pts[2 * i + 1] * sin, pts[2 * i] * sin + pts[2 * i + 1] * cos];
  const [j0x] = rot(0);
  const [j16x] = rot(16);
  const [nx, ny] = rot(30);
  const [, cy] = rot(8);
  const eyeY = ((lx + rx) / 2) * sin + ((ly + ry) / 2) * cos;
  const r = (nx - j0x) / (j16x - j0x || 1);
  const v = (ny - eyeY) / (cy - eyeY || 1);
  return { yawDeg: Math.asin(clamp1(2 * r - 1)) * DEG, pitchDeg: Math.asin(clamp1((v - 0.33) / 0.45)) * DEG, rollDeg: roll * DEG };
}

/** Sharpness and mean luma of a planar RGB chip [3, size, size] (0..255). */
export function chipStats(chip: Float32Array, size: number, offset = 0): { sharpness: number; meanLuma: number } {
  const plane = size * size;
  const grey = new Float32Array(plane);
  for (let i = 0; i < plane; i++) grey[i] = 0.299 * chip[offset + i] + 0.587 * chip[offset + plane + i] + 0.114 * chip[offset + 2 * plane + i];
  const m = Math.round(size / 6);
  let sum = 0;
  let sumL = 0;
  let sumL2 = 0;
  let n = 0;
  for (let y = m; y < size - m; y++) {
    for (let x = m; x < size - m; x++) {
      const i = y * size + x;
      const lap = grey[i - 1] + grey[i + 1] + grey[i - size] + grey[i + size] - 4 * grey[i];
      sum += grey[i];
      sumL += lap;
      sumL2 += lap * lap;
      n++;
    }
  }
  const ml = sumL / n;
  return { sharpness: sumL2 / n - ml * ml, meanLuma: sum / n };
}

/** Names of the limits a face fails (empty when acceptable). */
export function qualityFailures(q: FaceQuality, limits: QualityLimits = ENROLL_QUALITY_LIMITS): string[] {
  const f: string[] = [];
  if (q.interOcularPx < limits.minInterOcularPx) f.push('interOcularPx');
  if (q.sharpness < limits.minSharpnessLaplacianVar) f.push('sharpness');
  if (Math.abs(q.yawDeg) > limits.maxAbsYawDeg) f.push('yawDeg');
  if (Math.abs(q.pitchDeg) > limits.maxAbsPitchDeg) f.push('pitchDeg');
  if (Math.abs(q.rollDeg) > limits.maxAbsRollDeg) f.push('rollDeg');
  if (q.meanLuma < limits.minMeanLumaGrey || q.meanLuma > limits.maxMeanLumaGrey) f.push('meanLuma');
  if (q.detectionScore < limits.minDetectionScore) f.push('detectionScore');
  return f;
}

export function interOcularPx(pts: Landmarks68): number {
  const [lx, ly] = mean(pts, 36, 41);
  const [rx, ry] = mean(pts, 42, 47);
  return Math.hypot(rx - lx, ry - ly);
}
