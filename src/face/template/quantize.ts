/**
 * Symmetric per-vector quantisation of face embeddings.
 * - int8 (q_i = round(127 * v_i / max|v|), scale = fround(max|v| / 127)): the 1:N scan, cosine up
 *   to ~1e-3. That is too coarse for decisions: dlib scores of genuine and impostor pairs crowd
 *   around the threshold, and int8 scores cost 0.2 points of LFW accuracy.
 * - 16-bit (quantize16: the int8 code refined by an int8 residual, 127 x 256 levels): every
 *   decision score, 1:1 and 1:N alike (the gallery rescoring the int8 scan's best rows), so verify,
 *   match and identify give identical scores, equal to the float cosine up to ~1e-5.
 * similarity = (sum q_a * q_b) * scale_a * scale_b.
 */
export interface QuantizedVector {
  q: Int8Array;
  scale: number;
}

function maxAbs(v: Float32Array): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  return max;
}

export function quantize(v: Float32Array, out?: Int8Array, offset = 0): QuantizedVector {
  const max = maxAbs(v);
  const q = out ?? new Int8Array(v.length);
  const inv = max > 0 ? 127 / max : 0;
  for (let i = 0; i < v.length; i++) q[offset + i] = Math.round(v[i] * inv);
  return { q: out ? q.subarray(offset, offset + v.length) : q, scale: Math.fround(max / 127) };
}

/** Integer dot product of two int8 vectors of length `n` at the given offsets. */
export function dotInt8(a: Int8Array, ao: number, b: Int8Array, bo: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    s0 += a[ao + k] * b[bo + k];
    s1 += a[ao + k + 1] * b[bo + k + 1];
    s2 += a[ao + k + 2] * b[bo + k + 2];
    s3 += a[ao + k + 3] * b[bo + k + 3];
  }
  for (; k < n; k++) s0 += a[ao + k] * b[bo + k];
  return s0 + s1 + s2 + s3;
}

export function quantizedSimilarity(a: QuantizedVector, b: QuantizedVector): number {
  return dotInt8(a.q, 0, b.q, 0, a.q.length) * (a.scale * b.scale);
}

export interface Quantized16Vector {
  q: Int16Array;
  scale: number;
}

/**
 * 16-bit codes built on the int8 ones: c_i = 256 * q8_i + r_i with q8_i = round(127 * v_i / max|v|)
 * (the int8 code) and r_i = round(256 * 127 * v_i / max|v| - 256 * q8_i) clamped to [-128, 127]
 * for i < residualDims, r_i = 0 after; scale = fround(max|v| / 127) / 256. The gallery stores q8
 * and the first residualDims r as int8 rows and rebuilds exactly these codes. The face engine
 * keeps residuals for the dlib part only (fusion.ts): its cosines crowd into a narrow range
 * where int8 rounding (~1e-3) moves LFW decisions; MobileFaceNet's spread 6x wider.
 */
export function quantize16(v: Float32Array, residualDims = v.length): Quantized16Vector {
  const max = maxAbs(v);
  const q = new Int16Array(v.length);
  const inv = max > 0 ? 127 / max : 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] * inv;
    const q8 = Math.round(x);
    q[i] = 256 * q8 + (i < residualDims ? Math.min(127, Math.max(-128, Math.round(256 * x - 256 * q8))) : 0);
  }
  return { q, scale: Math.fround(max / 127) / 256 };
}

/** Integer dot product of two int16 vectors (exact: |sum| < 2^53). */
export function dotInt16(a: Int16Array, ao: number, b: Int16Array, bo: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let k = 0;
  for (; k + 1 < n; k += 2) {
    s0 += a[ao + k] * b[bo + k];
    s1 += a[ao + k + 1] * b[bo + k + 1];
  }
  for (; k < n; k++) s0 += a[ao + k] * b[bo + k];
  return s0 + s1;
}

/** The decision score of two embeddings (16-bit cosine). */
export function similarity16(a: Quantized16Vector, b: Quantized16Vector): number {
  return dotInt16(a.q, 0, b.q, 0, a.q.length) * (a.scale * b.scale);
}
