/**
 * Symmetric per-vector int8 quantisation used for every face comparison (1:1 and 1:N alike, so
 * verify, match and identify give identical scores): q_i = round(127 * v_i / max|v|), scale =
 * fround(max|v| / 127); similarity = (sum q_a * q_b) * scale_a * scale_b, i.e. the cosine of the
 * L2-normalised vectors up to ~1e-3 (measured in bench/face.ts).
 */
export interface QuantizedVector {
  q: Int8Array;
  scale: number;
}

export function quantize(v: Float32Array, out?: Int8Array, offset = 0): QuantizedVector {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
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
