/**
 * Image evidence that presentation attacks leave, each a plain number measured on the face and its
 * surroundings. None is a decision on its own: engine.ts fuses them with the network's output, with
 * weights fitted by `npm run bench:liveness -- --fit` (see README.md for each signal measured alone).
 *
 * Samples used (all from one pass over the pixels):
 * - the native patches: 64 x 64 source pixels at the face centre (luma, and B - Y), never resampled,
 *   so that screen pixel grids, moiré and halftone screens keep their frequencies;
 * - the face sample: the face box resampled (nearest) to 64 x 64 RGB;
 * - the context: the network's 128 x 128 Silent-Face crop (2.7x the box), as luma.
 */
import { nativeGreyPatch, type FaceBox, type PixelRect, type RgbRaster } from './crop.js';
import { powerSpectra2 } from './fft.js';

/** The scalar signals. */
export const SCALAR_SIGNALS = ['spectralPeak', 'chromaPeak', 'highFreq', 'border', 'glare', 'chroma', 'faceSharpness', 'depthOfField'] as const;
const LBP_CHANNELS = ['Y1', 'Y2', 'Cb1', 'Cr1'] as const;
const LBP_BINS = 10;
/** Colour texture: rotation-invariant uniform LBP histograms (P = 8; luma at radius 1 and 2, chroma at radius 1), 10 bins each. */
export const TEXTURE_SIGNALS = LBP_CHANNELS.flatMap((c) => Array.from({ length: LBP_BINS }, (_, i) => `lbp${c}_${i}` as const));
export const SIGNAL_NAMES = [...SCALAR_SIGNALS, ...TEXTURE_SIGNALS] as const;
export type SignalName = (typeof SCALAR_SIGNALS)[number] | (typeof TEXTURE_SIGNALS)[number];
export type Signals = Record<SignalName, number>;

const FACE_SAMPLE = 64;

const SPECTRUM = 64;

/** Ring (rounded radius) of every frequency of an n x n spectrum, -1 where left out (see spectralPeak). */
const RING_TABLE = ((): { ring: Int16Array; count: Float64Array } => {
  const n = SPECTRUM;
  const half = n / 2;
  const lo = Math.round(0.15 * n);
  const cell = n / 8;
  const nearLattice = (k: number): boolean => {
    const m = ((k % cell) + cell) % cell;
    return m <= 1 || m >= cell - 1;
  };
  const ring = new Int16Array(n * n).fill(-1);
  const count = new Float64Array(half + 1);
  for (let v = 0; v < n; v++) {
    const fv = v <= half ? v : v - n;
    for (let u = 0; u < n; u++) {
      const fu = u <= half ? u : u - n;
      const r = Math.round(Math.hypot(fu, fv));
      if (r < lo || r > half || (nearLattice(fu) && nearLattice(fv))) continue;
      ring[v * n + u] = r;
      count[r]++;
    }
  }
  return { ring, count };
})();

/**
 * Largest excess of the log power spectrum over its ring's mean, over 0.15..0.5 cycles/px (below, the
 * face's own strong low frequencies leak through the window), JPEG's
 * 8-px block lattice (k/8 cycles/px on both axes, +-1 bin) left out: screen grids, moiré and
 * halftone are periodic and stand out of the smooth 1/f spectrum of a face (log10 units).
 * `highFreq`: log10 of the energy over 0.25..0.5 cycles/px against 0.05..0.25 (paper grain, dots).
 */
export function spectrumStats(p: Float64Array): { peak: number; highFreq: number } {
  const n = SPECTRUM;
  const half = n / 2;
  const { ring, count } = RING_TABLE;
  const sum = new Float64Array(half + 1);
  const logs = new Float64Array(n * n);
  let eHigh = 0;
  let eMid = 0;
  for (let v = 0; v < n; v++) {
    const fv = v <= half ? v : v - n;
    for (let u = 0; u < n; u++) {
      const fu = u <= half ? u : u - n;
      const k = v * n + u;
      const r2 = fu * fu + fv * fv;
      if (r2 >= 0.0625 * n * n) eHigh += p[k];
      else if (r2 >= 0.0025 * n * n) eMid += p[k];
      const r = ring[k];
      if (r < 0) continue;
      const l = Math.log10(p[k] + 1e-6);
      logs[k] = l;
      sum[r] += l;
    }
  }
  let peak = 0;
  for (let k = 0; k < n * n; k++) {
    const r = ring[k];
    if (r >= 0) peak = Math.max(peak, logs[k] - sum[r] / count[r]);
  }
  return { peak, highFreq: Math.log10((eHigh + 1) / (eMid + 1)) };
}

/** Native chroma patch (B - Y, the halftone's colour screens), same geometry as nativeGreyPatch. */
function nativeChromaPatch(img: RgbRaster, cx: number, cy: number, n: number): Float32Array {
  const out = new Float32Array(n * n);
  const x0 = Math.round(cx - n / 2);
  const y0 = Math.round(cy - n / 2);
  for (let y = 0; y < n; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, y0 + y));
    for (let x = 0; x < n; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, x0 + x));
      const p = (sy * img.width + sx) * 3;
      out[y * n + x] = img.data[p + 2] - (0.299 * img.data[p] + 0.587 * img.data[p + 1] + 0.114 * img.data[p + 2]);
    }
  }
  return out;
}

/** Face box resampled (nearest, pixel centres) to 64 x 64 interleaved RGB. */
export function faceSample(img: RgbRaster, box: FaceBox): Uint8Array {
  const out = new Uint8Array(FACE_SAMPLE * FACE_SAMPLE * 3);
  for (let y = 0; y < FACE_SAMPLE; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, Math.floor(box.y + ((y + 0.5) * box.height) / FACE_SAMPLE)));
    for (let x = 0; x < FACE_SAMPLE; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, Math.floor(box.x + ((x + 0.5) * box.width) / FACE_SAMPLE)));
      const s = (sy * img.width + sx) * 3;
      const o = (y * FACE_SAMPLE + x) * 3;
      out[o] = img.data[s];
      out[o + 1] = img.data[s + 1];
      out[o + 2] = img.data[s + 2];
    }
  }
  return out;
}

const luma = (d: ArrayLike<number>, o: number): number => 0.299 * d[o] + 0.587 * d[o + 1] + 0.114 * d[o + 2];

/** Variance of the 4-neighbour Laplacian of a grey n x m raster over the mask (all when omitted). */
function laplacianVariance(g: Float32Array, w: number, h: number, keep?: (x: number, y: number) => boolean): number {
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      if (keep && !keep(x, y)) continue;
      const i = y * w + x;
      const l = g[i - 1] + g[i + 1] + g[i - w] + g[i + w] - 4 * g[i];
      s += l;
      s2 += l * l;
      n++;
    }
  }
  if (n === 0) return 0;
  const m = s / n;
  return s2 / n - m * m;
}

/** Per-face exposure and focus measured on the face sample (the quality gates of engine.ts). */
export interface FaceExposure {
  /** Mean luma of the face box, 0..255. */
  meanLuma: number;
  /** Fraction of face pixels at luma >= 250 or <= 5 (clipped). */
  clipped: number;
  /** Variance of the Laplacian of the 64 x 64 face sample's luma. */
  sharpness: number;
}

export function faceExposure(face: Uint8Array): FaceExposure {
  const n = FACE_SAMPLE * FACE_SAMPLE;
  const g = new Float32Array(n);
  let sum = 0;
  let clipped = 0;
  for (let i = 0; i < n; i++) {
    g[i] = luma(face, i * 3);
    sum += g[i];
    if (g[i] >= 250 || g[i] <= 5) clipped++;
  }
  return { meanLuma: sum / n, clipped: clipped / n, sharpness: laplacianVariance(g, FACE_SAMPLE, FACE_SAMPLE) };
}

/**
 * Longest straight edge around the face in the context crop (a paper sheet's or a device's border):
 * signed Sobel responses summed along near-horizontal and near-vertical lines (slopes -0.14..0.14),
 * the face box's own pixels left out, over lines that cross at least half the crop; the best line's
 * mean response divided by the crop's mean absolute gradient.
 */
export function borderStrength(ctx: Float32Array, size: number, face: PixelRect): number {
  const gx = new Float32Array(size * size);
  const gy = new Float32Array(size * size);
  let mag = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const i = y * size + x;
      const a = ctx[i - size - 1], b = ctx[i - size], c = ctx[i - size + 1];
      const d = ctx[i - 1], f = ctx[i + 1];
      const g = ctx[i + size - 1], h = ctx[i + size], k = ctx[i + size + 1];
      gx[i] = c + 2 * f + k - a - 2 * d - g;
      gy[i] = g + 2 * h + k - a - 2 * b - c;
      mag += Math.abs(gx[i]) + Math.abs(gy[i]);
    }
  }
  mag /= 2 * (size - 2) * (size - 2);
  const inFace = (x: number, y: number): boolean => x >= face.x0 && x <= face.x1 && y >= face.y0 && y <= face.y1;
  let best = 0;
  const slopes = [-0.14, -0.07, 0, 0.07, 0.14];
  for (const horizontal of [true, false]) {
    const g = horizontal ? gy : gx;
    for (const t of slopes) {
      for (let o = 2; o < size - 2; o += 1) {
        let s = 0;
        let n = 0;
        for (let a = 1; a < size - 1; a += 2) {
          const b = Math.round(o + t * (a - size / 2));
          if (b < 1 || b >= size - 1) continue;
          const x = horizontal ? a : b;
          const y = horizontal ? b : a;
          if (inFace(x, y)) continue;
          s += g[y * size + x];
          n++;
        }
        if (n >= size / 4) best = Math.max(best, Math.abs(s) / n);
      }
    }
  }
  return best / (mag + 1);
}

/** riu2 bin of an 8-bit LBP code: the count of ones when the circular pattern has <= 2 transitions, else 9. */
const RIU2 = ((): Uint8Array => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    let transitions = 0;
    let ones = 0;
    for (let i = 0; i < 8; i++) {
      const bit = (c >> i) & 1;
      ones += bit;
      if (bit !== ((c >> ((i + 1) % 8)) & 1)) transitions++;
    }
    t[c] = transitions <= 2 ? ones : 9;
  }
  return t;
})();

/** Normalised riu2 LBP histogram (P = 8, square neighbourhood of radius r) of a 64 x 64 plane. */
function lbpHistogram(g: Float32Array, r: number, out: Signals, prefix: string): void {
  const n = FACE_SAMPLE;
  const off = [[-r, -r], [0, -r], [r, -r], [r, 0], [r, r], [0, r], [-r, r], [-r, 0]].map(([dx, dy]) => dy * n + dx);
  const h = new Float64Array(LBP_BINS);
  let total = 0;
  for (let y = r; y < n - r; y++) {
    for (let x = r; x < n - r; x++) {
      const i = y * n + x;
      const c = g[i];
      let code = 0;
      for (let k = 0; k < 8; k++) if (g[i + off[k]] >= c) code |= 1 << k;
      h[RIU2[code]]++;
      total++;
    }
  }
  for (let b = 0; b < LBP_BINS; b++) (out as Record<string, number>)[`${prefix}_${b}`] = h[b] / total;
}

/** Colour texture of the face sample (TEXTURE_SIGNALS), written into `out`. */
export function textureSignals(face: Uint8Array, out: Signals): void {
  const n = FACE_SAMPLE * FACE_SAMPLE;
  const Y = new Float32Array(n);
  const Cb = new Float32Array(n);
  const Cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = luma(face, i * 3);
    Y[i] = y;
    Cb[i] = face[i * 3 + 2] - y;
    Cr[i] = face[i * 3] - y;
  }
  lbpHistogram(Y, 1, out, 'lbpY1');
  lbpHistogram(Y, 2, out, 'lbpY2');
  lbpHistogram(Cb, 1, out, 'lbpCb1');
  lbpHistogram(Cr, 1, out, 'lbpCr1');
}

/**
 * Every signal of one face.
 * @param img the image (interleaved RGB); @param box the face box in its pixels;
 * @param ctx the context crop's luma (size x size), @param faceInCtx the face box inside it.
 */
export function measureSignals(img: RgbRaster, box: FaceBox, face: Uint8Array, exposure: FaceExposure, ctx: Float32Array, size: number, faceInCtx: PixelRect): Signals {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const [pg, pc] = powerSpectra2(nativeGreyPatch(img, cx, cy, SPECTRUM), nativeChromaPatch(img, cx, cy, SPECTRUM), SPECTRUM);
  const grey = spectrumStats(pg);
  const chromaP = spectrumStats(pc);
  // colour spread and glare on the face sample
  const count = FACE_SAMPLE * FACE_SAMPLE;
  let sb = 0, sr = 0, sb2 = 0, sr2 = 0, glare = 0;
  for (let i = 0; i < count; i++) {
    const o = i * 3;
    const y = luma(face, o);
    const cb = face[o + 2] - y;
    const cr = face[o] - y;
    sb += cb; sr += cr; sb2 += cb * cb; sr2 += cr * cr;
    const mx = Math.max(face[o], face[o + 1], face[o + 2]);
    const mn = Math.min(face[o], face[o + 1], face[o + 2]);
    if (y >= 235 && mx - mn <= 30) glare++;
  }
  const chroma = Math.sqrt(Math.max(0, sb2 / count - (sb / count) ** 2) + Math.max(0, sr2 / count - (sr / count) ** 2));
  // depth of field: the face's focus against the surroundings' (a flat medium has one focus)
  const faceLap = laplacianVariance(ctx, size, size, (x, y) => x >= faceInCtx.x0 && x <= faceInCtx.x1 && y >= faceInCtx.y0 && y <= faceInCtx.y1);
  const ringLap = laplacianVariance(ctx, size, size, (x, y) => !(x >= faceInCtx.x0 - 4 && x <= faceInCtx.x1 + 4 && y >= faceInCtx.y0 - 4 && y <= faceInCtx.y1 + 4));
  const out = {
    spectralPeak: grey.peak,
    chromaPeak: chromaP.peak,
    highFreq: grey.highFreq,
    border: borderStrength(ctx, size, faceInCtx),
    glare: glare / count,
    chroma: Math.log10(chroma + 1),
    faceSharpness: Math.log10(exposure.sharpness + 1),
    depthOfField: Math.log10((faceLap + 1) / (ringLap + 1)),
  } as Signals;
  textureSignals(face, out);
  return out;
}
