/**
 * Score-level fusion of the two recognisers, folded into one vector so that a plain cosine (and
 * the int8 gallery scan) computes it.
 *
 * For unit vectors d (dlib ResNet-34, 128-d) and m (MobileFaceNet, 192-d), the fused vector is
 * [sqrt(wD) * d, sqrt(wM) * m] with wD + wM = 1: unit length, and the cosine of two fused vectors
 * is wD * cos(d1, d2) + wM * cos(m1, m2).
 *
 * Weights: equal weight on each recogniser's cosine after dividing it by its standard deviation
 * over the 3,000 lfw-dev pairs.txt scores (dlib with mirror 0.0653, MobileFaceNet with mirror
 * 0.3934; labels not used), i.e. wD : wM = 1/0.0653 : 1/0.3934. Equal weight is the plain
 * default, chosen after a sweep in which the lfw-dev error count stayed at 13-17 of 3,000 for every
 * MobileFaceNet weight from 0.2 to 0.7 (dlib alone: 19). See src/face/README.md.
 */

export const DLIB_DIM = 128;
export const MOBILEFACENET_DIM = 192;
/** Length of the fused vector stored in templates. */
export const FUSED_DIM = DLIB_DIM + MOBILEFACENET_DIM;

const SPREAD_DLIB = 0.0653;
const SPREAD_MOBILEFACENET = 0.3934;
/** Weight of the dlib cosine in the fused score (the MobileFaceNet weight is 1 - W_DLIB). */
export const W_DLIB = 1 / SPREAD_DLIB / (1 / SPREAD_DLIB + 1 / SPREAD_MOBILEFACENET);

/** Sums `views` consecutive descriptors of length `dim` and L2-normalises the sum (one recogniser's vector). */
export function pooled(desc: Float32Array, dim: number, views: number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < views; i++) for (let k = 0; k < dim; k++) v[k] += desc[i * dim + k];
  let n = 0;
  for (let k = 0; k < dim; k++) n += v[k] * v[k];
  n = Math.sqrt(n) || 1;
  for (let k = 0; k < dim; k++) v[k] /= n;
  return v;
}

/**
 * The fused, unit-length vector of one face.
 * @param dlib raw dlib descriptors, `views` x 128 (the chip, then its mirror).
 * @param mobileFaceNet raw MobileFaceNet outputs, `views` x 192 (same views).
 * @param views 1 (chip) or 2 (chip + mirror: test-time flip, the descriptors are summed).
 * @returns Float32Array(320).
 */
export function fuseEmbeddings(dlib: Float32Array, mobileFaceNet: Float32Array, views: number): Float32Array {
  const d = pooled(dlib, DLIB_DIM, views);
  const m = pooled(mobileFaceNet, MOBILEFACENET_DIM, views);
  const out = new Float32Array(FUSED_DIM);
  const sd = Math.sqrt(W_DLIB);
  const sm = Math.sqrt(1 - W_DLIB);
  for (let k = 0; k < DLIB_DIM; k++) out[k] = sd * d[k];
  for (let k = 0; k < MOBILEFACENET_DIM; k++) out[DLIB_DIM + k] = sm * m[k];
  return out;
}
